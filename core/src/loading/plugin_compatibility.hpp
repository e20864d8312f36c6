// Stages compatibility and handshake share one rule and one wording: the ABI major equal, the
// plugin's minor not newer, the descriptor long enough and the same build fingerprint. The manifest
// is checked before dlopen; the descriptor, the same way, before any plugin function runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "famspec/plugin_record.hpp"

namespace famspec::detail {

// What a plugin says it was built for, from its manifest or from its descriptor.
struct BuildClaim {
    std::string name;
    std::uint16_t abi_major = 0;
    std::uint16_t abi_minor = 0;
    std::uint32_t descriptor_size = 0;
    std::optional<std::string> fingerprint;  // absent when the descriptor has none
};

std::optional<PluginError> check_compatibility(const std::string& path, PluginStage stage, const BuildClaim& claim);

}  // namespace famspec::detail
