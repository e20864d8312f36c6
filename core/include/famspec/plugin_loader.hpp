// Finds, checks and loads family plugins, and freezes what they register into a Registry.
//
// Stages per candidate: find -> trust -> manifest -> compatibility (no plugin code has run yet) ->
// open (dlopen RTLD_NOW|RTLD_LOCAL, through the descriptor the file was checked from) -> entry ->
// handshake -> register -> validate. A failing plugin is reported with its path and stage; the
// others still load. Libraries are never unloaded.
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

// The default plugin directory: famspec/plugins next to the famspec library itself
// (<prefix>/lib/famspec/plugins for <prefix>/lib/libfamspec.so), whatever program embeds it; for a
// program the core is linked into statically (the famspec command), <bin>/../lib/famspec/plugins.
FAMSPEC_API std::filesystem::path default_plugin_directory();

// One pinned plugin file: its SHA-256 (lower-case hex) and the name it is known by.
struct RequiredDigest {
    std::string name;
    std::string sha256;
};

struct LoadOptions {
    std::vector<std::filesystem::path> directories;  // every *.so in each, in order, by byte-wise name
    std::vector<std::filesystem::path> files;        // explicit plugin files, after the directories
    std::vector<PluginError> search_errors;          // carried into the report (from plugin_search_path)
    bool require_manifest = true;                    // false only for the manifest generator
    // Refuse a plugin with a factory whose component no loaded plugin registers (stage validate).
    // Off only where one plugin is loaded on its own on purpose: the manifest generator and
    // verify's child, which check the file, not the set.
    bool require_components = true;
    // Load a plugin whose file or directory is writable by group or others, or owned by someone other
    // than root and the current user. Off by default; each such plugin is logged as a warning.
    bool allow_insecure = false;
    // When set, only files whose SHA-256 is listed are loaded; the others are refused before dlopen.
    std::optional<std::vector<RequiredDigest>> required_digests;
    LogCallback log;
};

// What a host gets from its environment, read with secure_getenv (ignored in a set-uid program):
// the search path of plugin_search_path(explicit_paths, FAMSPEC_PLUGIN_PATH, default_plugin_directory()),
// FAMSPEC_ALLOW_INSECURE=1 and FAMSPEC_REQUIRE_DIGESTS. A digest file that cannot be read is a
// trust-stage error and pins nothing, so that every plugin is refused rather than none checked.
FAMSPEC_API LoadOptions load_options_from_environment(const std::vector<std::string>& explicit_paths = {},
                                                      LogCallback log = {});

// Runs every stage and returns the frozen registry (plugin records included). Thread-safe: one
// process-wide loader mutex serialises loads. Never throws for a bad plugin. Registry::all_ok() is
// false when any directory or candidate failed: a runtime that wants everything checks it.
FAMSPEC_API std::shared_ptr<const Registry> load_plugins(const LoadOptions& options);

}  // namespace famspec
