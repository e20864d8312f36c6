// A plugin whose descriptor points at a well-formed block of tables that lies in writable memory,
// where anything in the process could have changed it after the build: refused before it is read.
#include "famspec/sdk/tables.hpp"

namespace {
constexpr auto kBuilt = famspec::tables::compile([](auto use) {
    using namespace famspec::tables;
    return use(Plugin{.families = {{.model_type = "writable_tables", .architecture = "WritableForCausalLM"}}});
});
auto writable = kBuilt;  // constant-initialised, in .data
}  // namespace

extern "C" __attribute__((visibility("default"))) const famspec::PluginDescriptor famspec_plugin_descriptor;
extern "C" constinit const famspec::PluginDescriptor famspec_plugin_descriptor = {famspec::kPluginMagic,
                                                                                  sizeof(famspec::PluginDescriptor),
                                                                                  famspec::kAbiMajor,
                                                                                  famspec::kAbiMinor,
                                                                                  FAMSPEC_BUILD_FINGERPRINT,
                                                                                  "tables_in_writable_memory",
                                                                                  "1.0.0",
                                                                                  "famspec test fixture",
                                                                                  &writable.header};
