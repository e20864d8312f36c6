// Why the loader looks where it does (SearchPath::origin): type-only, so every stage may name it
// (famspec/names.hpp prints it).
#pragma once

namespace famspec {

enum class SearchOrigin { flag, environment, default_directory };

// The variable the environment origin reads: a colon-separated list of directories.
inline constexpr const char* kPluginPathVariable = "FAMSPEC_PLUGIN_PATH";

}  // namespace famspec
