// The metadata a plugin carries in its .famspec_manifest section, readable without loading it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

struct ManifestFamily {
    std::string model_type;
    std::string architecture;
    std::vector<std::string> aliases;
    std::vector<std::string> directory_aliases;

    friend bool operator==(const ManifestFamily&, const ManifestFamily&) = default;
};

struct ManifestArchetype {
    std::string compute_factory;
    std::vector<std::string> fingerprint;  // router, shared_experts, expert_storage

    friend bool operator==(const ManifestArchetype&, const ManifestArchetype&) = default;
};

struct PluginManifest {
    static constexpr int kFormat = 1;

    std::string name;
    std::string version;
    std::string description;
    std::uint16_t abi_major = 0;
    std::uint16_t abi_minor = 0;
    std::uint32_t descriptor_size = 0;
    std::string fingerprint;
    std::vector<ManifestFamily> families;
    std::vector<std::string> factories;  // targets
    std::vector<ManifestArchetype> archetypes;
    std::vector<std::string> cp_wrappers;  // targets
    std::vector<std::string> components;   // <defining module>.<class>

    friend bool operator==(const PluginManifest&, const PluginManifest&) = default;

    // No family, factory, archetype, CP wrapper or component: an entry point that forgot its work.
    bool registers_nothing() const {
        return families.empty() && factories.empty() && archetypes.empty() && cp_wrappers.empty() && components.empty();
    }
};

// Sorts every list so that equal declarations compare equal whatever the registration order.
FAMSPEC_API PluginManifest normalized(PluginManifest manifest);

// Canonical JSON (sorted keys, sorted lists): byte-identical for equal manifests.
FAMSPEC_API std::string to_json(const PluginManifest& manifest);

// The manifest, or what was expected and what was found.
using ManifestParse = Expected<PluginManifest, std::string>;
// Strict: unknown keys, wrong types, a depth over 8 or a size over 1 MiB are errors.
FAMSPEC_API ManifestParse parse_manifest(std::string_view json);

// The differences between a carried manifest and the one derived from registration, one per line.
FAMSPEC_API std::vector<std::string> manifest_differences(const PluginManifest& carried,
                                                          const PluginManifest& registered);

}  // namespace famspec
