// Finds, checks and loads family plugins, and freezes what they register into a Registry.
//
// Stages per candidate: find -> manifest -> compatibility (no plugin code has run yet) -> open
// (dlopen RTLD_NOW|RTLD_LOCAL) -> entry -> handshake -> register -> validate. A failing plugin is
// reported with its path and stage; the others still load. Libraries are never unloaded.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/log.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

inline constexpr const char* kPluginPathVariable = "FAMSPEC_PLUGIN_PATH";

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

// The default plugin directory of a program: <directory of the executable>/../lib/famspec/plugins.
FAMSPEC_API std::filesystem::path default_plugin_directory(const std::filesystem::path& executable);

struct LoadOptions {
    std::vector<std::filesystem::path> directories;  // every *.so in each, in order, by byte-wise name
    std::vector<std::filesystem::path> files;        // explicit plugin files, after the directories
    std::vector<PluginError> search_errors;          // carried into the report (from plugin_search_path)
    bool require_manifest = true;                    // false only for the manifest generator
    LogCallback log;
    // Called as each candidate enters a stage (verify's child reports it, to name where a crash hit).
    std::function<void(const std::string& path, PluginStage stage)> on_stage;
};

FAMSPEC_API LoadOptions load_options_for(const SearchPath& search, LogCallback log = {});

// Runs every stage and returns the frozen registry (plugin records included). Thread-safe: one
// process-wide loader mutex serialises loads. Never throws for a bad plugin.
FAMSPEC_API std::shared_ptr<const Registry> load_plugins(const LoadOptions& options);

// Stages find, manifest and compatibility only, plus manifest-level duplicate checks: what the
// files declare, without running any plugin code.
FAMSPEC_API std::vector<PluginRecord> inspect_plugins(const LoadOptions& options);

// inspect_plugins without the duplicate checks: for a caller that decides duplicates itself from what
// actually loads (verify), since a plugin refused at load time claims nothing.
FAMSPEC_API std::vector<PluginRecord> inspect_candidates(const LoadOptions& options);

// Marks, in order, every ok record whose manifest claims something an earlier ok record already
// claims (stage validate). `verify` uses it on the manifests its child processes report.
FAMSPEC_API void mark_conflicts(std::vector<PluginRecord>& records);

// The manifest a plugin's registration produces (for the build-time manifest generator).
// A plugin refused at the handshake (another ABI or build fingerprint) gets a descriptor-only
// manifest together with the error, so that a loader refuses it before dlopen with the same reason.
struct ManifestGeneration {
    std::optional<PluginManifest> manifest;
    std::optional<PluginError> error;
    bool descriptor_only = false;
};
FAMSPEC_API ManifestGeneration generate_manifest(const std::filesystem::path& plugin);

}  // namespace famspec
