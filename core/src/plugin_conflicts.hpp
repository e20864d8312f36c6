// Cross-plugin duplicate detection: the same family, spelling, factory target, archetype, CP wrapper
// or component claimed by two plugins is an error naming both. Works on manifests, so `list` can
// report it without loading anything and the loader can check it before committing a plugin.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "famspec/plugin_manifest.hpp"

namespace famspec::detail {

class ClaimTable {
public:
    // The conflicts `manifest` would cause; empty when it can be accepted.
    std::vector<std::string> conflicts(const PluginManifest& manifest) const;
    void accept(const PluginManifest& manifest, const std::string& path);

private:
    struct Owner {
        std::string plugin;
        std::string path;
    };
    std::map<std::string, Owner> owners_;
};

}  // namespace famspec::detail
