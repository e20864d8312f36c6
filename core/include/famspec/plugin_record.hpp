// What the loader knows about one candidate plugin file, and the report of why it did not load.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace famspec {

// A candidate's stages, in order; a failure names its stage (trust: safe file and directory, pinned digest).
enum class PluginStage { find, trust, manifest, compatibility, open, entry, handshake, register_, validate };

struct PluginError {
    std::string path;
    PluginStage stage = PluginStage::find;
    std::string expected;
    std::string found;
    std::string system_message;  // dlerror or OS text, when there is one
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
    std::vector<std::string> notes;                  // what differs without changing the ABI (a compiler)

    bool ok() const { return !error.has_value(); }
};

}  // namespace famspec
