// The loader's records (types only): what a load is asked, what it knows of each candidate, why one did not load.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/log.hpp"

namespace famspec {

// A candidate's stages, in order; a failure names its stage (docs/security.md says what each checks).
enum class PluginStage { find, trust, manifest, compatibility, register_, validate };

struct PluginError {
    std::string path;
    PluginStage stage = PluginStage::find;
    std::string expected;
    std::string found;
    std::string system_message;  // the OS's text, when there is one
    std::string message;         // one readable sentence naming the file and both sides
    friend bool operator==(const PluginError&, const PluginError&) = default;
};

struct PluginManifest;  // famspec/plugin_manifest.hpp

struct PluginRecord {
    std::string path;                // the path it was taken from (the first one in search order)
    std::vector<std::string> paths;  // every path that reached the same file (symlink, hardlink, copy)
    std::string build_id;
    std::shared_ptr<const PluginManifest> manifest;  // what the file carries, when it could be read
    std::optional<PluginError> error;                // empty when the plugin is ok
    std::vector<std::string> notes;                  // what a host may want to know, not an error
    bool rows_read = false;  // its declarations were copied: not when refused before, or untouched (read_selection.hpp)

    bool ok() const { return !error.has_value(); }
};

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
    // When set, only files whose SHA-256 is listed are loaded; the others are refused before they are read.
    std::optional<std::vector<RequiredDigest>> required_digests;
    LogCallback log;
};

}  // namespace famspec
