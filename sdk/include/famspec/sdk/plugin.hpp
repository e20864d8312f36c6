// The one entry point of a plugin.
//
//   FAMSPEC_PLUGIN("qwen3_moe", "1.0.0", "Qwen3-MoE family")(famspec::Registrar& registrar) {
//       famspec::declare::Family qwen{"qwen3_moe", "Qwen3MoeForCausalLM"};
//       ...
//       qwen.register_into(registrar);  // or registrar.add_*(...) with a hand-written implementation
//   }
//
// The macro defines the exported, constant-initialised descriptor the loader reads first (magic,
// ABI, fingerprint, name) and names the register function that the loader calls only after the
// plugin is known to be compatible. Nothing registers from a static constructor. The descriptor is
// the only symbol a plugin exports (famspec_add_plugin's version script), and a plugin links no
// famspec library: the SDK is header-only.
#pragma once

#include <cstdint>

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/registrar.hpp"

// Test-only hooks to build a plugin that claims another ABI; never set them in a real plugin.
#ifndef FAMSPEC_PLUGIN_ABI_MAJOR
#define FAMSPEC_PLUGIN_ABI_MAJOR ::famspec::kAbiMajor
#endif
#ifndef FAMSPEC_PLUGIN_ABI_MINOR
#define FAMSPEC_PLUGIN_ABI_MINOR ::famspec::kAbiMinor
#endif
#ifndef FAMSPEC_PLUGIN_FINGERPRINT
#define FAMSPEC_PLUGIN_FINGERPRINT FAMSPEC_BUILD_FINGERPRINT
#endif
#ifndef FAMSPEC_PLUGIN_DESCRIPTOR_SIZE
#define FAMSPEC_PLUGIN_DESCRIPTOR_SIZE sizeof(::famspec::PluginDescriptor)
#endif

#define FAMSPEC_PLUGIN(NAME, VERSION, DESCRIPTION)                                                                 \
    static void famspec_register_plugin(::famspec::Registrar&);                                                    \
    extern "C" __attribute__((visibility("default"))) const ::famspec::PluginDescriptor famspec_plugin_descriptor; \
    extern "C" const ::famspec::PluginDescriptor famspec_plugin_descriptor = {                                     \
        ::famspec::kPluginMagic,                                                                                   \
        static_cast<std::uint32_t>(FAMSPEC_PLUGIN_DESCRIPTOR_SIZE),                                                \
        static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MAJOR),                                                      \
        static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MINOR),                                                      \
        FAMSPEC_PLUGIN_FINGERPRINT,                                                                                \
        NAME,                                                                                                      \
        VERSION,                                                                                                   \
        DESCRIPTION,                                                                                               \
        &famspec_register_plugin};                                                                                 \
    static void famspec_register_plugin
