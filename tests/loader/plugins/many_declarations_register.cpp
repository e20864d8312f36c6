// ABI 3.0's many_declarations, kept only for famspec-bench-declarations until it builds the table
// form's fixture once per count (famspec_many_declarations_fixture): one family with as many
// replacement factories as the environment's FAMSPEC_FIXTURE_DECLARATIONS says (4 when unset).
// Reading the environment in registration is for this fixture only; a real plugin declares constants.
#include <cstdlib>
#include <string>

#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("many_declarations", "1.0.0", "A family with a configurable number of factories")
(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const char* requested = std::getenv("FAMSPEC_FIXTURE_DECLARATIONS");
    const long count = requested != nullptr ? std::strtol(requested, nullptr, 10) : 4;
    // Its own component, so that it loads on its own (no catalogue plugin on the path).
    const std::string modules = "hyper_parallel.models.many.modules";
    Family family{"many", "ManyForCausalLM"};
    for (long i = 0; i < count; ++i) {
        family.factory("hyper_parallel.models.many.adapter.replacements.replace_norm_" + std::to_string(i))
            .wraps("ManyNorm", modules)
            .bind("module_fqn")
            .bind("context");
    }
    family.register_into(registrar);
    Components{modules}
        .component({.name = "ManyNorm",
                    .submodule = "norm",
                    .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none)},
                    .source = {}})
        .register_into(registrar);
}
