// One family with as many replacement factories as FAMSPEC_FIXTURE_DECLARATIONS says (4 when unset):
// the size a plugin's declarations reach, for the manifest limit and the loading-time figures.
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
