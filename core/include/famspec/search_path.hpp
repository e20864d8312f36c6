// Where the loader looks for plugins and why there (what the CLI reports with every listing), and
// the environment variables load_options_from_environment() reads.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"

namespace famspec {

inline constexpr const char* kPluginPathVariable = "FAMSPEC_PLUGIN_PATH";
inline constexpr const char* kAllowInsecureVariable = "FAMSPEC_ALLOW_INSECURE";    // "1": as allow_insecure
inline constexpr const char* kRequireDigestsVariable = "FAMSPEC_REQUIRE_DIGESTS";  // a file, as required_digests

// Where plugins are searched, and why there.
struct SearchPath {
    enum class Origin { flag, environment, default_directory };
    Origin origin = Origin::default_directory;
    std::vector<std::filesystem::path> directories;
    std::vector<PluginError> errors;  // rejected entries (relative paths), reported at the find stage
};

// Precedence: explicit paths (when any) > FAMSPEC_PLUGIN_PATH (when set) > the default directory.
// Relative entries are rejected, never resolved against the working directory.
FAMSPEC_API SearchPath plugin_search_path(const std::vector<std::string>& explicit_paths,
                                          const std::optional<std::string>& environment,
                                          const std::filesystem::path& default_directory);

FAMSPEC_API LoadOptions load_options_for(const SearchPath& search, LogCallback log = {});

}  // namespace famspec
