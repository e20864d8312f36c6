// Its descriptor names a string that no library defines. It links only because this one target
// tolerates unresolved symbols; the dynamic loader must then refuse it at the open stage (a data
// reference is bound when the library is mapped), before the descriptor is ever read.
#include "famspec/sdk/tables.hpp"

extern "C" const char zoo_description_nobody_defines[];

FAMSPEC_PLUGIN("unresolved_symbol", "1.0.0", zoo_description_nobody_defines,
               Plugin{
                   .families = {{.model_type = "unresolved_symbol", .architecture = "unresolved_symbolForCausalLM"}}});
