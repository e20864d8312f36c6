#include "famspec/plugin_manifest.hpp"

#include <algorithm>
#include <boost/json.hpp>

#include "famspec/canonical_json.hpp"

namespace famspec {
namespace json = boost::json;
PluginManifest normalized(PluginManifest manifest) {
    for (auto& family : manifest.families) {
        std::sort(family.aliases.begin(), family.aliases.end());
        std::sort(family.directory_aliases.begin(), family.directory_aliases.end());
    }
    std::sort(manifest.families.begin(), manifest.families.end(),
              [](const auto& a, const auto& b) { return a.model_type < b.model_type; });
    std::sort(manifest.factories.begin(), manifest.factories.end());
    std::sort(manifest.archetypes.begin(), manifest.archetypes.end(),
              [](const auto& a, const auto& b) { return a.compute_factory < b.compute_factory; });
    std::sort(manifest.cp_wrappers.begin(), manifest.cp_wrappers.end());
    std::sort(manifest.components.begin(), manifest.components.end());
    return manifest;
}

std::string to_json(const PluginManifest& input) {
    const PluginManifest manifest = normalized(input);
    json::object out;
    out["name"] = manifest.name;
    out["version"] = manifest.version;
    out["description"] = manifest.description;
    out["abi"] = json::object{{"major", manifest.abi_major}, {"minor", manifest.abi_minor}};
    out["table_bytes"] = manifest.table_bytes;
    out["fingerprint"] = manifest.fingerprint;
    json::array families;
    for (const auto& family : manifest.families) {
        families.push_back(json::object{{"model_type", family.model_type},
                                        {"architecture", family.architecture},
                                        {"aliases", string_array(family.aliases)},
                                        {"directory_aliases", string_array(family.directory_aliases)}});
    }
    out["families"] = std::move(families);
    out["factories"] = string_array(manifest.factories);
    json::array archetypes;
    for (const auto& archetype : manifest.archetypes) {
        archetypes.push_back(json::object{{"compute_factory", archetype.compute_factory},
                                          {"fingerprint", string_array(archetype.fingerprint)}});
    }
    out["archetypes"] = std::move(archetypes);
    out["cp_wrappers"] = string_array(manifest.cp_wrappers);
    out["components"] = string_array(manifest.components);
    return canonical_json(out);
}

}  // namespace famspec
