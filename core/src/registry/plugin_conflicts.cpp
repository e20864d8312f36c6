#include "registry/plugin_conflicts.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <tuple>

#include "common/family_key_index.hpp"
#include "discovery/plugin_refusal.hpp"
#include "famspec/registry.hpp"

namespace famspec::detail {
namespace {

// How a claim of each kind is named in a refusal.
struct ClaimKind {
    std::string_view kind, before, after;
};
constexpr std::array<ClaimKind, 8> kClaimKinds = {{{"family", "family '", "'"},
                                                   {"spelling", "family spelling '", "'"},
                                                   {"directory", "directory alias '", "'"},
                                                   {"factory", "factory '", "'"},
                                                   {"archetype", "archetype fingerprint (", ")"},
                                                   {"compute", "archetype compute factory '", "'"},
                                                   {"cp", "CP wrapper '", "'"},
                                                   {"component", "component '", "'"}}};

// "<kind>:<name>" as a refusal names it; made only for a claim that is shared.
std::string description(std::string_view key) {
    const std::size_t colon = key.find(':');
    const std::string_view kind = key.substr(0, colon);
    const std::string_view name = key.substr(colon + 1);
    for (const ClaimKind& k : kClaimKinds) {
        if (k.kind == kind) return std::string(k.before).append(name).append(k.after);
    }
    return std::string(key);
}

// Every key a plugin claims, "<kind>:<name>", sorted and each once.
std::vector<std::string> claims_of(const PluginManifest& manifest) {
    std::vector<std::string> claims;
    const auto claim = [&](std::string_view kind, std::string_view name) {
        claims.push_back(std::string(kind).append(1, ':').append(name));
    };
    for (const auto& family : manifest.families) {
        claim("family", family.model_type);
        // Across plugins every shared spelling clashes (within one plugin a family's own name outranks
        // another's architecture or alias); directory aliases are a key space of their own.
        for (const auto& key : detail::family_spellings(family.model_type, family.architecture, family.aliases))
            claim("spelling", key);
        for (const auto& key : detail::directory_keys(family.directory_aliases)) claim("directory", key);
    }
    for (const auto& target : manifest.factories) claim("factory", target);
    for (const auto& archetype : manifest.archetypes) {
        std::string fingerprint;
        for (const auto& part : archetype.fingerprint) fingerprint += (fingerprint.empty() ? "" : ", ") + part;
        claim("archetype", fingerprint);
        claim("compute", archetype.compute_factory);
    }
    for (const auto& target : manifest.cp_wrappers) claim("cp", target);
    for (const auto& path : manifest.components) claim("component", path);
    std::sort(claims.begin(), claims.end());
    claims.erase(std::unique(claims.begin(), claims.end()), claims.end());
    return claims;
}

}  // namespace

std::vector<std::vector<std::string>> shared_claims(const std::vector<Claimant>& claimants) {
    // Every claim of every claimant in one sorted list: a key claimed twice is a run of two or more,
    // and no description is made for the others.
    struct Claim {
        std::string_view key;
        std::size_t owner;
        bool operator<(const Claim& other) const { return std::tie(key, owner) < std::tie(other.key, other.owner); }
    };
    std::vector<std::vector<std::string>> keys;
    std::vector<Claim> all;
    for (std::size_t i = 0; i < claimants.size(); ++i) {
        keys.push_back(claims_of(*claimants[i].manifest));
        for (const std::string& key : keys.back()) all.push_back({key, i});
    }
    std::sort(all.begin(), all.end());
    // Runs are taken in key order, so each claimant's list is in key order too.
    std::vector<std::vector<std::string>> shared(claimants.size());
    for (auto run = all.begin(); run != all.end();) {
        const auto end = std::find_if(run, all.end(), [&](const Claim& c) { return c.key != run->key; });
        if (end - run > 1) {
            for (auto mine = run; mine != end; ++mine) {
                std::string others;
                for (auto other = run; other != end; ++other) {
                    if (other == mine) continue;
                    const Claimant& claimant = claimants[other->owner];
                    others += std::string(others.empty() ? "" : " and ") + "plugin '" + claimant.manifest->name +
                              "' (" + claimant.path + ")";
                }
                shared[mine->owner].push_back(description(run->key) + " is also registered by " + others);
            }
        }
        run = end;
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
