// The digest lists `--require-digests` and FAMSPEC_REQUIRE_DIGESTS name.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// The digests, or "file:line: what was expected".
using RequiredDigests = Expected<std::vector<RequiredDigest>, std::string>;

// Reads a digest list: the JSON a snapshot writes, {"plugins": [{"name": N, "sha256": H}, ...]}
// (other keys ignored; H may carry a "sha256:" prefix), or one "H NAME" pair per line as sha256sum
// prints them (blank lines and # comments ignored). A directory, a file that cannot be read and an
// empty name are errors that say which; an empty file is an empty list (which pins nothing, so no
// plugin loads).
FAMSPEC_API RequiredDigests read_required_digests(const std::filesystem::path& file);

// Sets options.required_digests from a digest file. A file that cannot be used is a trust-stage
// error and pins nothing, so that every plugin is refused rather than none checked.
FAMSPEC_API void require_digests(LoadOptions& options, const std::filesystem::path& file);

}  // namespace famspec
