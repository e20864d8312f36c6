// The binary contract between the core and a plugin: a constant descriptor that the loader reads
// before it calls anything in the plugin.
#pragma once

#include <cstddef>
#include <cstdint>

#include "famspec/sdk/version.hpp"

namespace famspec {

class Registrar;

// Bump the major for any change to the descriptor layout or to an interface class; bump the minor
// for an addition that older cores can ignore.
// 2: header-only SDK, Registrar takes ownership (unique_ptr); 3: Parameter::allowed (Literal[...] values)
inline constexpr std::uint16_t kAbiMajor = 3;
inline constexpr std::uint16_t kAbiMinor = 0;
inline constexpr std::uint64_t kPluginMagic = 0x3143455053'4d4146ULL;  // "FAMSPEC1", little-endian

using RegisterFunction = void (*)(Registrar&);

// Plain data, constant-initialised: reading it runs no plugin code.
struct PluginDescriptor {
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

// The smallest descriptor a core of this ABI major accepts (minor 0 ends with register_plugin).
inline constexpr std::uint32_t kMinDescriptorSize = sizeof(PluginDescriptor);

inline constexpr const char* kEntrySymbol = "famspec_plugin_descriptor";
inline constexpr const char* kManifestSection = ".famspec_manifest";

}  // namespace famspec

#define FAMSPEC_STRINGIFY_(x) #x
#define FAMSPEC_STRINGIFY(x) FAMSPEC_STRINGIFY_(x)

#if defined(__clang__)
#define FAMSPEC_FP_COMPILER "clang-" FAMSPEC_STRINGIFY(__clang_major__)
#elif defined(__GNUC__)
#define FAMSPEC_FP_COMPILER "gcc-" FAMSPEC_STRINGIFY(__GNUC__)
#else
#define FAMSPEC_FP_COMPILER "unknown"
#endif

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define FAMSPEC_FP_CXX11_ABI FAMSPEC_STRINGIFY(_GLIBCXX_USE_CXX11_ABI)
#else
#define FAMSPEC_FP_CXX11_ABI "none"
#endif

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
#else
#define FAMSPEC_FP_TSAN "none"
#endif

// key=value fields, ';'-separated, in a fixed order; the loader names the fields that differ.
#define FAMSPEC_BUILD_FINGERPRINT                                                                                  \
    "compiler=" FAMSPEC_FP_COMPILER ";cxx11-abi=" FAMSPEC_FP_CXX11_ABI                                             \
    ";debug-containers=" FAMSPEC_FP_DEBUG_CONTAINERS ";assertions=" FAMSPEC_FP_ASSERTIONS ";asan=" FAMSPEC_FP_ASAN \
    ";tsan=" FAMSPEC_FP_TSAN ";famspec=" FAMSPEC_STRINGIFY(FAMSPEC_VERSION_MAJOR)
