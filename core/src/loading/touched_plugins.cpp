#include "loading/touched_plugins.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "common/dotted_path.hpp"
#include "famspec/family_keys.hpp"

namespace famspec::detail {
namespace {

using ClaimNames = std::set<std::string, std::less<>>;

bool meets_any(const ClaimNames& names, const auto& items, const auto& name_of_item) {
    return std::any_of(items.begin(), items.end(),
                       [&](const auto& item) { return names.contains(name_of_item(item)); });
}

std::string_view claim_last_name(std::string_view dotted) { return split_last(dotted).name; }

// A family answers a spelling by its model_type exactly, or by a normalised key of its spellings or
// of its directory aliases: the very keys the registry looks a spelling up by.
bool declares_family(const PluginManifest& manifest, const ClaimNames& spellings, const ClaimNames& keys) {
    return std::any_of(manifest.families.begin(), manifest.families.end(), [&](const ManifestFamily& family) {
        const auto key = [](const std::string& k) -> const std::string& { return k; };
        return spellings.contains(family.model_type) ||
               meets_any(keys, family_spellings(family.model_type, family.architecture, family.aliases), key) ||
               meets_any(keys, directory_keys(family.directory_aliases), key);
    });
}

bool claims_target(const ClaimsOf& plugin, const ClaimNames& last_names) {
    const PluginManifest& manifest = *plugin.manifest;
    const auto last = [](const std::string& target) { return claim_last_name(target); };
    if (meets_any(last_names, manifest.factories, last) || meets_any(last_names, manifest.cp_wrappers, last) ||
        meets_any(last_names, manifest.components, last)) {
        return true;
    }
    if (meets_any(last_names, manifest.archetypes,
                  [](const ManifestArchetype& archetype) { return claim_last_name(archetype.compute_factory); })) {
        return true;
    }
    // Compute functions are no claim (no manifest lists them), yet a local_compute_fn target may be one.
    const tables::TableView& view = *plugin.view;
    for (const tables::FamilyRow& family : view.families()) {
        for (const tables::Text text : view.rows<tables::Text>(family.compute_functions)) {
            if (last_names.contains(claim_last_name(view.text(text)))) return true;
        }
    }
    return false;
}

}  // namespace

std::vector<bool> touched_plugins(const TouchNames& names, std::span<const ClaimsOf> plugins) {
    const ClaimNames spellings(names.families.begin(), names.families.end());
    ClaimNames keys;
    for (const std::string& spelling : names.families) keys.insert(normalize_family_key(spelling));
    ClaimNames last_names;
    for (const std::string& target : names.targets) last_names.emplace(claim_last_name(target));
    std::vector<bool> touched;
    touched.reserve(plugins.size());
    for (const ClaimsOf& plugin : plugins) {
        touched.push_back(declares_family(*plugin.manifest, spellings, keys) || claims_target(plugin, last_names));
    }
    return touched;
}

bool touch_providers(std::span<const std::string> classes, std::span<const ClaimsOf> plugins,
                     std::vector<bool>& touched) {
    const ClaimNames wanted(classes.begin(), classes.end());
    bool more = false;
    for (std::size_t i = 0; i < plugins.size(); ++i) {
        if (touched[i] || !meets_any(wanted, plugins[i].manifest->components, claim_last_name)) continue;
        touched[i] = true;
        more = true;
    }
    return more;
}

}  // namespace famspec::detail
