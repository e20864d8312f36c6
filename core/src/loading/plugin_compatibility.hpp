// Stage compatibility: whether this core can read a plugin file's tables at all, decided from its ELF
// identification and its header before any other byte of the block is trusted: the machine, word size
// and byte order, then the ABI (major equal, plugin minor not newer), then the table format. A
// refusal names the file, what differs, and both sides.
#pragma once

#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

// The candidate's table section has been read (stage manifest).
std::optional<PluginError> check_compatibility(const Candidate& candidate);

}  // namespace famspec::detail
