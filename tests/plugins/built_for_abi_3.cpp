// A plugin as famspec's ABI 3.0 made them: a descriptor that ends in a register function, written
// out by hand so that it stays buildable once the SDK has no such form. A core of another ABI major
// must refuse it by its claim alone, naming both ABIs, and never call the function.
#include <cstdint>

#include "famspec/sdk/abi.hpp"

#if !defined(ZOO_NAME)
#error "define ZOO_NAME"
#endif

namespace {

// ABI 3.0's famspec::PluginDescriptor, field by field.
struct Abi3Descriptor {
    std::uint64_t magic;
    std::uint32_t descriptor_size;
    std::uint16_t abi_major;
    std::uint16_t abi_minor;
    const char* fingerprint;
    const char* name;
    const char* version;
    const char* description;
    void (*register_plugin)(void* registrar);
};
static_assert(sizeof(Abi3Descriptor) == 56, "ABI 3.0's descriptor is 56 bytes on LP64");

// What a 3.0 core would call; it declares nothing.
void register_nothing(void*) {}

}  // namespace

extern "C" __attribute__((visibility("default"))) const Abi3Descriptor famspec_plugin_descriptor;
extern "C" constinit const Abi3Descriptor famspec_plugin_descriptor = {
    famspec::kPluginMagic,  sizeof(Abi3Descriptor), 3, 0, FAMSPEC_BUILD_FINGERPRINT, ZOO_NAME, "1.0.0",
    "famspec test fixture", &register_nothing};
