// Cross-plugin duplicates: a family, spelling, factory target, archetype, CP wrapper or component
// claimed by two plugins is an error for both. Neither claim is used, whichever sorts first, so the
// answer never depends on file names or directory order. Works on manifests, so `list` and `verify`
// report it without loading anything and the loader checks it before committing any plugin.
#pragma once

#include <string>
#include <vector>

#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

struct Claimant {
    const PluginManifest* manifest;
    std::string path;
};

// For each claimant, in order: what it claims that another claimant claims too, naming the others.
// Empty for a claimant that shares nothing.
std::vector<std::vector<std::string>> shared_claims(const std::vector<Claimant>& claimants);

// The validate-stage refusal of a plugin whose claims are shared.
PluginError duplicate_refusal(const std::string& path, const std::vector<std::string>& shared);

}  // namespace famspec::detail
