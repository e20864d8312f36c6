// What a load is asked to do: where to look, what to trust and what to pin. Type-only: discovery
// reads it, and the loader (famspec/plugin_loader.hpp) runs it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "famspec/log.hpp"
#include "famspec/plugin_record.hpp"

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

}  // namespace famspec
