// What a plugin says of itself and claims: the header of its tables (name, version, what it was built
// for) and the keys of its declarations, read from the tables without copying the declarations.
// It is derived from the very rows the core registers, so it cannot differ from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
    std::string name;
    std::string version;
    std::string description;
    std::uint16_t abi_major = 0;
    std::uint16_t abi_minor = 0;
    std::uint32_t table_bytes = 0;  // the size of its block of tables
    std::string fingerprint;        // famspec/fingerprint.hpp
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

}  // namespace famspec
