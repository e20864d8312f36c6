// Calls a function that no library defines. It links only because this one target tolerates
// unresolved symbols; RTLD_NOW must then refuse it at the open stage instead of failing at the
// first call.
#include "famspec/sdk.hpp"

int zoo_function_nobody_defines();

FAMSPEC_PLUGIN("unresolved_symbol", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    famspec::declare::Family family{"unresolved_symbol", "unresolved_symbolForCausalLM"};
    if (zoo_function_nobody_defines() > 0) {
        family.factory("hyper_parallel.models.unresolved_symbol.adapter.replacements.replace_norm")
            .wraps("RMSNorm", "hyper_parallel.components.modules");
    }
    family.register_into(registrar);
}
