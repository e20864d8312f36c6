#include "plugin_conflicts.hpp"

#include <map>

#include "famspec/registry.hpp"
#include "plugin_refusal.hpp"

namespace famspec::detail {
namespace {

// Every key a plugin claims, with a readable description.
std::map<std::string, std::string> claims_of(const PluginManifest& manifest) {
    std::map<std::string, std::string> claims;
    for (const auto& family : manifest.families) {
        claims["family:" + family.model_type] = "family '" + family.model_type + "'";
        // Across plugins every shared spelling clashes (within one plugin a family's own name outranks
        // another's architecture or alias); directory aliases are a key space of their own.
        for (const auto& key : family_spellings(family.model_type, family.architecture, family.aliases))
            claims["spelling:" + key] = "family spelling '" + key + "'";
        for (const auto& key : directory_keys(family.directory_aliases))
            claims["directory:" + key] = "directory alias '" + key + "'";
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

std::vector<std::vector<std::string>> shared_claims(const std::vector<Claimant>& claimants) {
    std::vector<std::map<std::string, std::string>> claims;
    std::map<std::string, std::vector<std::size_t>> owners;
    for (std::size_t i = 0; i < claimants.size(); ++i) {
        claims.push_back(claims_of(*claimants[i].manifest));
        for (const auto& [key, description] : claims.back()) owners[key].push_back(i);
    }
    std::vector<std::vector<std::string>> shared(claimants.size());
    for (std::size_t i = 0; i < claimants.size(); ++i) {
        for (const auto& [key, description] : claims[i]) {
            std::string others;
            for (const std::size_t j : owners[key]) {
                if (j == i) continue;
                others += std::string(others.empty() ? "" : " and ") + "plugin '" + claimants[j].manifest->name +
                          "' (" + claimants[j].path + ")";
            }
            if (!others.empty()) shared[i].push_back(description + " is also registered by " + others);
        }
    }
    return shared;
}

PluginError duplicate_refusal(const std::string& path, const std::vector<std::string>& shared) {
    const std::string all = joined(shared);
    return refusal(path, PluginStage::validate, "declarations no other plugin registers", all,
                   "duplicate registration: " + all +
                       "; neither plugin's declarations are used: remove one of them from the plugin path");
}

}  // namespace famspec::detail
