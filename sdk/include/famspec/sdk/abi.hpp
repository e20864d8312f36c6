// The binary contract between the core and a plugin. A plugin is one block of constant tables
// (table_layout.hpp) in a section of its own, `.famspec_tables`, exported as `famspec_plugin_tables`.
// The core reads that section from the file; it never maps the file with the dynamic linker, so no
// byte of a plugin ever runs in a famspec process.
#pragma once

#include <cstdint>

#include "famspec/sdk/version.hpp"

namespace famspec {

// Bump the major for any change to the header's fixed prefix or to the meaning of a row; bump the
// minor for an addition that older cores can ignore.
// 2: header-only SDK; 3: Parameter::allowed (Literal[...] values); 4: a plugin is data, constant
// tables reached through a descriptor the dynamic linker mapped; 5: the tables are a section of the
// file, read without loading it, and carry the plugin's identity; the MoE words are typed.
// 5.1: archetypes and CP wrappers owned by no family, and CP wrappers borrowed from another family
// (fields and an array appended to the header, table_layout.hpp); a 5.1 core reads a 5.0 plugin.
inline constexpr std::uint16_t kAbiMajor = 5;
inline constexpr std::uint16_t kAbiMinor = 1;
inline constexpr std::uint64_t kPluginMagic = 0x3543455053'4d4146ULL;  // "FAMSPEC5", little-endian

inline constexpr const char* kTableSection = ".famspec_tables";
inline constexpr const char* kEntrySymbol = "famspec_plugin_tables";
// What ABI 4 and older plugins carried, to name them when one is found.
inline constexpr const char* kLegacyManifestSection = ".famspec_manifest";

}  // namespace famspec

#define FAMSPEC_STRINGIFY_(x) #x
#define FAMSPEC_STRINGIFY(x) FAMSPEC_STRINGIFY_(x)

// The compiler a plugin was built with: recorded in its tables and shown by `famspec info`, never
// compared. The rows are plain integers, so neither the compiler nor its standard library changes
// what the core reads.
#if defined(__clang__)
#define FAMSPEC_COMPILER                                                                                      \
    "clang-" FAMSPEC_STRINGIFY(__clang_major__) "." FAMSPEC_STRINGIFY(__clang_minor__) "." FAMSPEC_STRINGIFY( \
        __clang_patchlevel__)
#elif defined(__GNUC__)
#define FAMSPEC_COMPILER \
    "gcc-" FAMSPEC_STRINGIFY(__GNUC__) "." FAMSPEC_STRINGIFY(__GNUC_MINOR__) "." FAMSPEC_STRINGIFY(__GNUC_PATCHLEVEL__)
#else
#define FAMSPEC_COMPILER "unknown"
#endif
