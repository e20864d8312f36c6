// What the loader knows about one candidate plugin file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plugin_error.hpp"

namespace famspec {

struct PluginManifest;  // famspec/plugin_manifest.hpp

struct PluginRecord {
    std::string path;                // the path it was taken from (the first one in search order)
    std::vector<std::string> paths;  // every path that reached the same file (symlink, hardlink, copy)
    std::string build_id;
    std::shared_ptr<const PluginManifest> manifest;  // what the file carries, when it could be read
    std::optional<PluginError> error;                // empty when the plugin is ok

    bool ok() const { return !error.has_value(); }
};

}  // namespace famspec
