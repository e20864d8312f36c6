// Stage trust: like sudo's plugin loading and OpenSSH's StrictModes, a plugin is loaded only from a
// file and a directory that nobody but root or the current user can change; and, when digests are
// pinned, only if the file's SHA-256 is listed. Decided before any byte of the file is trusted.
#pragma once

#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

std::optional<PluginError> check_trust(const Candidate& candidate, const LoadOptions& options);

}  // namespace famspec::detail
