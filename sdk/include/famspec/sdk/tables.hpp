// A plugin as data: the entry point of ABI 4.0, which hands the core a constant block of tables
// instead of a register function (docs/design/plugin-tables.md).
//
//   FAMSPEC_PLUGIN_TABLES("qwen3", "1.0.0", "Qwen3ForCausalLM family",
//                         Plugin{.families = {{.model_type = "qwen3", ...}}})
//
// The block is written while the plugin compiles (table_compiler.hpp); the plugin's binary holds
// it, its descriptor and no code.
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
#define FAMSPEC_PLUGIN_TABLES(NAME, VERSION, DESCRIPTION, ...)                       \
    namespace {                                                                      \
    constexpr auto famspec_plugin_tables = ::famspec::tables::compile([](auto use) { \
        using namespace ::famspec::tables;                                           \
        return use(__VA_ARGS__);                                                     \
    });                                                                              \
    }                                                                                \
    FAMSPEC_PLUGIN_TABLES_DESCRIPTOR(NAME, VERSION, DESCRIPTION, famspec_plugin_tables.header)

// The descriptor alone, for a block compiled otherwise: declarations generated from a parameter
// pack (a callback of compile() that is a template), or a block a test breaks on purpose. HEADER is
// the TableHeader of a constexpr block.
#define FAMSPEC_PLUGIN_TABLES_DESCRIPTOR(NAME, VERSION, DESCRIPTION, HEADER)                                       \
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
