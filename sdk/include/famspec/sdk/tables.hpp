// The one entry point of a plugin, which is data (ABI 4, docs/design/plugin-tables.md):
//
//   FAMSPEC_PLUGIN("qwen3", "1.0.0", "Qwen3ForCausalLM family",
//                  Plugin{.families = {{.model_type = "qwen3", ...}}});
//
// The declarations are compiled into one constant block of tables while the plugin compiles
// (table_compiler.hpp); the plugin's binary holds it, its descriptor and no code. The descriptor is
// the only symbol a plugin exports (famspec_add_plugin's version script); the core reads it, checks
// the ABI and the build fingerprint, then reads and copies the tables. Nothing registers from a
// static constructor, and a plugin links no famspec library: the SDK is header-only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/table_compiler.hpp"
#include "famspec/sdk/table_declarations.hpp"
#include "famspec/sdk/table_layout.hpp"

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

// "file:line" of where it is written, as a string literal: `.where = FAMSPEC_HERE` in a declaration
// written by hand. (A default member initializer cannot supply it: GCC gives every element of a
// braced list the line of the whole expression.) `famspec sync` writes the runtime source's instead.
#define FAMSPEC_HERE __FILE__ ":" FAMSPEC_STRINGIFY(__LINE__)

// The plugin's tables (constexpr, so constant-initialised and readable by static_assert) and its
// descriptor (constinit): reading them runs no plugin code. The invocation ends with a semicolon.
#define FAMSPEC_PLUGIN(NAME, VERSION, DESCRIPTION, ...)                              \
    namespace {                                                                      \
    constexpr auto famspec_plugin_tables = ::famspec::tables::compile([](auto use) { \
        using namespace ::famspec::tables;                                           \
        return use(__VA_ARGS__);                                                     \
    });                                                                              \
    }                                                                                \
    FAMSPEC_PLUGIN_DESCRIPTOR(NAME, VERSION, DESCRIPTION, famspec_plugin_tables.header)

// The descriptor alone, for a block compiled otherwise: declarations generated from a parameter
// pack (a callback of compile() that is a template), or a block a test breaks on purpose. HEADER is
// the TableHeader of a constexpr block.
#define FAMSPEC_PLUGIN_DESCRIPTOR(NAME, VERSION, DESCRIPTION, HEADER)                                              \
    extern "C" __attribute__((visibility("default"))) const ::famspec::PluginDescriptor famspec_plugin_descriptor; \
    extern "C" constinit const ::famspec::PluginDescriptor famspec_plugin_descriptor = {                           \
        ::famspec::kPluginMagic,                                                                                   \
        static_cast<std::uint32_t>(FAMSPEC_PLUGIN_DESCRIPTOR_SIZE),                                                \
        static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MAJOR),                                                      \
        static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MINOR),                                                      \
        FAMSPEC_PLUGIN_FINGERPRINT,                                                                                \
        NAME,                                                                                                      \
        VERSION,                                                                                                   \
        DESCRIPTION,                                                                                               \
        &(HEADER)}
