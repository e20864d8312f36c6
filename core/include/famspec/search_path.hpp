// Where the loader looks for plugins and why there (what the CLI reports with every listing): the
// default directory, and the load options a host takes from its environment.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plugin_record.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/search_origin.hpp"

namespace famspec {

inline constexpr const char* kAllowInsecureVariable = "FAMSPEC_ALLOW_INSECURE";    // "1": as allow_insecure
inline constexpr const char* kRequireDigestsVariable = "FAMSPEC_REQUIRE_DIGESTS";  // a file, as required_digests

// Where plugins are searched, and why there.
struct SearchPath {
    using Origin = SearchOrigin;
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

// The default plugin directory: famspec/plugins next to the famspec library itself
// (<prefix>/lib/famspec/plugins for <prefix>/lib/libfamspec.so), whatever program embeds it; for a
// program the core is linked into statically (the famspec command), <bin>/../lib/famspec/plugins.
FAMSPEC_API std::filesystem::path default_plugin_directory();

// What a host gets from its environment, read with secure_getenv (ignored in a set-uid program):
// the search path of plugin_search_path(explicit_paths, FAMSPEC_PLUGIN_PATH, default_plugin_directory()),
// FAMSPEC_ALLOW_INSECURE=1 and FAMSPEC_REQUIRE_DIGESTS. A digest file that cannot be read, and a
// FAMSPEC_REQUIRE_DIGESTS that is set but empty, are trust-stage errors and pin nothing, so that
// every plugin is refused rather than none checked.
FAMSPEC_API LoadOptions load_options_from_environment(const std::vector<std::string>& explicit_paths = {},
                                                      LogCallback log = {});

}  // namespace famspec
