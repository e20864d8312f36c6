// Finds, checks and loads family plugins, and freezes what they register into a Registry.
//
// Stages per candidate: find -> trust -> manifest -> compatibility (no plugin code has run yet) ->
// open (dlopen RTLD_NOW|RTLD_LOCAL, through the descriptor the file was checked from) -> entry ->
// handshake -> register -> validate. A failing plugin is reported with its path and stage; the
// others still load. Libraries are never unloaded.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/log.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// One pinned plugin file: its SHA-256 (lower-case hex) and the name it is known by.
struct RequiredDigest {
    std::string name;
    std::string sha256;
};

struct LoadOptions {
    std::vector<std::filesystem::path> directories;  // every *.so in each, in order, by byte-wise name
    std::vector<std::filesystem::path> files;        // explicit plugin files, after the directories
    std::vector<PluginError> search_errors;          // carried into the report (from plugin_search_path)
    // Load a plugin whose file or directory is writable by group or others, or owned by someone other
    // than root and the current user. Off by default; each such plugin is logged as a warning.
    bool allow_insecure = false;
    // When set, only files whose SHA-256 is listed are loaded; the others are refused before dlopen.
    std::optional<std::vector<RequiredDigest>> required_digests;
    LogCallback log;
};

// Runs every stage and returns the frozen registry (plugin records included). Thread-safe: one
// process-wide loader mutex serialises loads. Never throws for a bad plugin. Registry::all_ok() is
// false when any directory or candidate failed: a runtime that wants everything checks it.
FAMSPEC_API std::shared_ptr<const Registry> load_plugins(const LoadOptions& options);

}  // namespace famspec
