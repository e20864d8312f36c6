// The one entry point of a plugin, which is data (docs/design/plugin-tables.md):
//
//   FAMSPEC_PLUGIN("qwen3", "1.0.0", "Qwen3ForCausalLM family",
//                  Plugin{.families = {{.model_type = "qwen3", ...}}});
//
// The framework's plugin declares what belongs to no family at the top level, beside its components
// (ABI 5.1): `Plugin{.components = {...}, .archetypes = {...}, .cp_wrappers = {...}}`.
//
// The declarations are compiled into one constant block of tables while the plugin compiles
// (table_compiler.hpp). The block is the plugin's only exported symbol, `famspec_plugin_tables`, in
// a read-only section of its own, `.famspec_tables`, which the core reads from the file: famspec never
// loads a plugin with the dynamic linker, so nothing in it ever runs in famspec. Nothing registers
// from a static constructor, and a plugin links no famspec library: the SDK is header-only.
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

// "file:line" of where it is written, as a string literal: `.where = FAMSPEC_HERE` in a declaration
// written by hand. (A default member initializer cannot supply it: GCC gives every element of a
// braced list the line of the whole expression.) `famspec sync` writes the runtime source's instead.
#define FAMSPEC_HERE __FILE__ ":" FAMSPEC_STRINGIFY(__LINE__)

// The plugin's tables, constant-initialised (readable by static_assert), exported and placed in
// their own section. The invocation ends with a semicolon.
#define FAMSPEC_PLUGIN(NAME, VERSION, DESCRIPTION, ...)                                               \
    FAMSPEC_PLUGIN_TABLES(::famspec::tables::compile([](auto use) {                                   \
        using namespace ::famspec::tables;                                                            \
        return use(::famspec::tables::Identity{NAME, VERSION, DESCRIPTION, FAMSPEC_COMPILER,          \
                                               static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MAJOR),  \
                                               static_cast<std::uint16_t>(FAMSPEC_PLUGIN_ABI_MINOR)}, \
                   __VA_ARGS__);                                                                      \
    }))

// The exported block alone, for one compiled otherwise: declarations generated from a parameter pack
// (a callback of compile() that is a template), or a block a test breaks on purpose. BLOCK is a
// constant expression of a CompiledTables type.
#define FAMSPEC_PLUGIN_TABLES(BLOCK)                                         \
    extern __attribute__((visibility("default"), section(".famspec_tables"), \
                          used)) constexpr auto famspec_plugin_tables = BLOCK
