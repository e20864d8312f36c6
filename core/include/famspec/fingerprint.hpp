// The core's side of the build fingerprint, and a readable comparison with a plugin's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

FAMSPEC_API std::string_view core_fingerprint();
FAMSPEC_API std::string_view core_version();

// Why a plugin built with `plugin` cannot share this process with a core built with `core`: one
// "field [switch]: plugin X, core Y" for each field that changes the binary layout and differs
// (unknown and missing fields included). A plugin's standard library may be newer than the core's
// when the one this process loaded is at least as new. Empty: compatible.
FAMSPEC_API std::vector<std::string> fingerprint_differences(std::string_view plugin, std::string_view core);

// What differs without changing the ABI (the compiler, libstdc++'s assertions), in the same form.
FAMSPEC_API std::vector<std::string> fingerprint_notes(std::string_view plugin, std::string_view core);

// One field's value ("compiler" gives "gcc-12.2.0"), or "" when the fingerprint has none.
FAMSPEC_API std::string fingerprint_field(std::string_view fingerprint, std::string_view key);

}  // namespace famspec
