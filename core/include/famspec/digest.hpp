// The digest every famspec output is compared by (summary, snapshot, manifest pins).
#pragma once

#include <string>
#include <string_view>

#include "famspec/sdk/export.hpp"

namespace famspec {

// "sha256:<64 lower-case hex>" over the bytes.
FAMSPEC_API std::string sha256_digest(std::string_view bytes);

}  // namespace famspec
