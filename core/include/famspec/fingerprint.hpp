// The core's side of the build fingerprint, and a readable comparison with a plugin's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

FAMSPEC_API std::string_view core_fingerprint();
FAMSPEC_API std::string_view core_version();

// "field: plugin X, core Y" for every field that differs (unknown or missing fields included).
FAMSPEC_API std::vector<std::string> fingerprint_differences(std::string_view plugin, std::string_view core);

}  // namespace famspec
