// The smallest valid family plugin. Fixtures that differ from a good plugin only in their build
// flags or the ABI they claim build this file with their own ZOO_NAME and ZOO_FAMILY.
#include "famspec/sdk/tables.hpp"

#if !defined(ZOO_NAME) || !defined(ZOO_FAMILY)
#error "define ZOO_NAME and ZOO_FAMILY"
#endif

FAMSPEC_PLUGIN(
    ZOO_NAME, "1.0.0", "famspec test fixture",
    Plugin{
        .families = {{.model_type = ZOO_FAMILY,
                      .architecture = ZOO_FAMILY "ForCausalLM",
                      .factories = {{.target = "hyper_parallel.models." ZOO_FAMILY ".adapter.replacements.replace_norm",
                                     .constructs = wraps("RMSNorm", "hyper_parallel.components.modules")}}}}});
