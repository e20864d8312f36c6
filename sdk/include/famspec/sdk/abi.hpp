// The binary contract between the core and a plugin: a constant descriptor that the loader reads
// before it calls anything in the plugin.
#pragma once

#include <cstddef>
#include <cstdint>

#include "famspec/sdk/version.hpp"

namespace famspec {

namespace tables {
struct TableHeader;  // table_layout.hpp
}

// Bump the major for any change to the descriptor layout, to the table rows' meaning or to an
// interface class; bump the minor for an addition that older cores can ignore.
// 2: header-only SDK, Registrar takes ownership (unique_ptr); 3: Parameter::allowed (Literal[...] values);
// 4: a plugin is data: constant tables instead of a register function (docs/design/plugin-tables.md)
inline constexpr std::uint16_t kAbiMajor = 4;
inline constexpr std::uint16_t kAbiMinor = 0;
inline constexpr std::uint64_t kPluginMagic = 0x3143455053'4d4146ULL;  // "FAMSPEC1", little-endian

// Plain data, constant-initialised, and the plugin's only relocated object: reading it runs no
// plugin code. The fields up to `description` keep their offsets in every major, so that any core
// reads the ABI before anything else.
struct PluginDescriptor {
    std::uint64_t magic;
    std::uint32_t descriptor_size;
    std::uint16_t abi_major;
    std::uint16_t abi_minor;
    const char* fingerprint;
    const char* name;
    const char* version;
    const char* description;
    const tables::TableHeader* tables;  // the plugin's declarations, in its own read-only data
};

// The smallest descriptor a core of this ABI major accepts (minor 0 ends with tables).
inline constexpr std::uint32_t kMinDescriptorSize = sizeof(PluginDescriptor);

inline constexpr const char* kEntrySymbol = "famspec_plugin_descriptor";
inline constexpr const char* kManifestSection = ".famspec_manifest";

}  // namespace famspec

#define FAMSPEC_STRINGIFY_(x) #x
#define FAMSPEC_STRINGIFY(x) FAMSPEC_STRINGIFY_(x)

// The build fingerprint: key=value fields, ';'-separated, in a fixed order. The loader compares the
// fields that change the binary layout of what crosses the plugin boundary (the C++ standard
// library's family, release and ABI switches, the sanitizers that replace allocation, famspec's
// major) and only notes the compiler: GCC and Clang share the Itanium C++ ABI, and the SDK's types
// have one layout under both.
#if defined(_LIBCPP_VERSION)
#define FAMSPEC_FP_STDLIB "libc++"
#define FAMSPEC_FP_STDLIB_RELEASE FAMSPEC_STRINGIFY(_LIBCPP_VERSION)
#elif defined(_GLIBCXX_RELEASE)
#define FAMSPEC_FP_STDLIB "libstdc++"
#define FAMSPEC_FP_STDLIB_RELEASE FAMSPEC_STRINGIFY(_GLIBCXX_RELEASE)
#else
#define FAMSPEC_FP_STDLIB "unknown"
#define FAMSPEC_FP_STDLIB_RELEASE "0"
#endif

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define FAMSPEC_FP_CXX11_ABI FAMSPEC_STRINGIFY(_GLIBCXX_USE_CXX11_ABI)
#else
#define FAMSPEC_FP_CXX11_ABI "none"
#endif

// Debug containers change the layout of every standard container; assertions do not.
#if defined(_GLIBCXX_DEBUG)
#define FAMSPEC_FP_DEBUG_CONTAINERS "1"
#else
#define FAMSPEC_FP_DEBUG_CONTAINERS "0"
#endif

#if defined(_GLIBCXX_ASSERTIONS)
#define FAMSPEC_FP_ASSERTIONS "1"
#else
#define FAMSPEC_FP_ASSERTIONS "0"
#endif

// ASan changes allocation and must be first in the process, so it is part of the fingerprint.
#if defined(__SANITIZE_ADDRESS__)
#define FAMSPEC_FP_ASAN "address"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAMSPEC_FP_ASAN "address"
#endif
#endif
#ifndef FAMSPEC_FP_ASAN
#define FAMSPEC_FP_ASAN "none"
#endif

#if defined(__SANITIZE_THREAD__)
#define FAMSPEC_FP_TSAN "thread"
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FAMSPEC_FP_TSAN "thread"
#endif
#endif
#ifndef FAMSPEC_FP_TSAN
#define FAMSPEC_FP_TSAN "none"
#endif

// Recorded, never compared: shown by `famspec info`, and a difference is a note.
#if defined(__clang__)
#define FAMSPEC_FP_COMPILER                                                                                   \
    "clang-" FAMSPEC_STRINGIFY(__clang_major__) "." FAMSPEC_STRINGIFY(__clang_minor__) "." FAMSPEC_STRINGIFY( \
        __clang_patchlevel__)
#elif defined(__GNUC__)
#define FAMSPEC_FP_COMPILER \
    "gcc-" FAMSPEC_STRINGIFY(__GNUC__) "." FAMSPEC_STRINGIFY(__GNUC_MINOR__) "." FAMSPEC_STRINGIFY(__GNUC_PATCHLEVEL__)
#else
#define FAMSPEC_FP_COMPILER "unknown"
#endif

#define FAMSPEC_BUILD_FINGERPRINT                                                                               \
    "stdlib=" FAMSPEC_FP_STDLIB ";stdlib-release=" FAMSPEC_FP_STDLIB_RELEASE ";cxx11-abi=" FAMSPEC_FP_CXX11_ABI \
    ";debug-containers=" FAMSPEC_FP_DEBUG_CONTAINERS ";asan=" FAMSPEC_FP_ASAN ";tsan=" FAMSPEC_FP_TSAN          \
    ";famspec=" FAMSPEC_STRINGIFY(FAMSPEC_VERSION_MAJOR) ";compiler=" FAMSPEC_FP_COMPILER                       \
                                                         ";assertions=" FAMSPEC_FP_ASSERTIONS
