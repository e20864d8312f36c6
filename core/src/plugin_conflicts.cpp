#include "plugin_conflicts.hpp"

#include "famspec/registry.hpp"

namespace famspec::detail {
namespace {

// Every key a plugin claims, with a readable description.
std::map<std::string, std::string> claims_of(const PluginManifest& manifest) {
    std::map<std::string, std::string> claims;
    for (const auto& family : manifest.families) {
        claims["family:" + family.model_type] = "family '" + family.model_type + "'";
        for (const auto& key :
             family_spellings(family.model_type, family.architecture, family.aliases, family.directory_aliases))
            claims["spelling:" + key] = "family spelling '" + key + "'";
    }
    for (const auto& target : manifest.factories) claims["factory:" + target] = "factory '" + target + "'";
    for (const auto& archetype : manifest.archetypes) {
        std::string fingerprint;
        for (const auto& part : archetype.fingerprint) fingerprint += (fingerprint.empty() ? "" : ", ") + part;
        claims["archetype:" + fingerprint] = "archetype fingerprint (" + fingerprint + ")";
        claims["compute:" + archetype.compute_factory] =
            "archetype compute factory '" + archetype.compute_factory + "'";
    }
    for (const auto& target : manifest.cp_wrappers) claims["cp:" + target] = "CP wrapper '" + target + "'";
    for (const auto& path : manifest.components) claims["component:" + path] = "component '" + path + "'";
    return claims;
}

}  // namespace

std::vector<std::string> ClaimTable::conflicts(const PluginManifest& manifest) const {
    std::vector<std::string> out;
    for (const auto& [key, description] : claims_of(manifest)) {
        const auto it = owners_.find(key);
        if (it != owners_.end()) {
            out.push_back(description + " is already registered by plugin '" + it->second.plugin + "' (" +
                          it->second.path + ")");
        }
    }
    return out;
}

void ClaimTable::accept(const PluginManifest& manifest, const std::string& path) {
    for (const auto& [key, description] : claims_of(manifest)) owners_.emplace(key, Owner{manifest.name, path});
}

}  // namespace famspec::detail
