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

namespace famspec {

// ABI 3.0, read next to 4.0 while plugins move to the table form.
inline constexpr std::uint16_t kRegisterAbiMajor = 3;
using RegisterFunction = void (*)(Registrar&);
struct RegisterDescriptor {
    std::uint64_t magic;
    std::uint32_t descriptor_size;
    std::uint16_t abi_major;
    std::uint16_t abi_minor;
    const char* fingerprint;
    const char* name;
    const char* version;
    const char* description;
    RegisterFunction register_plugin;
};
static_assert(sizeof(RegisterDescriptor) == sizeof(PluginDescriptor));

}  // namespace famspec

#define FAMSPEC_PLUGIN(NAME, VERSION, DESCRIPTION)                                                                   \
    static void famspec_register_plugin(::famspec::Registrar&);                                                      \
    extern "C" __attribute__((visibility("default"))) const ::famspec::RegisterDescriptor famspec_plugin_descriptor; \
    extern "C" const ::famspec::RegisterDescriptor famspec_plugin_descriptor = {                                     \
        ::famspec::kPluginMagic,                                                                                     \
        static_cast<std::uint32_t>(sizeof(::famspec::RegisterDescriptor)),                                           \
        ::famspec::kRegisterAbiMajor,                                                                                \
        0,                                                                                                           \
        FAMSPEC_BUILD_FINGERPRINT,                                                                                   \
        NAME,                                                                                                        \
        VERSION,                                                                                                     \
        DESCRIPTION,                                                                                                 \
        &famspec_register_plugin};                                                                                   \
    static void famspec_register_plugin
