// Its code calls a function that no library defines; it links only because this one target
// tolerates unresolved symbols. A dynamic linker would refuse to load it. famspec never does: it
// reads the tables, so the plugin loads.
#include "famspec/sdk/tables.hpp"

extern "C" int zoo_function_nobody_defines();

__attribute__((visibility("default"))) int zoo_calls_the_undefined() { return zoo_function_nobody_defines(); }

FAMSPEC_PLUGIN("unresolved_symbol", "1.0.0", "famspec test fixture",
               Plugin{
                   .families = {{.model_type = "unresolved_symbol", .architecture = "unresolved_symbolForCausalLM"}}});
