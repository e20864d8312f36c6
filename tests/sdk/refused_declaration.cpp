// Must not compile: a factory that both constructs a component and is runtime-only. The test
// "sdk: a contradictory table declaration stops the build, naming the mistake" expects the
// compiler to stop here and to name the mistake.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("refused", "1.0.0", "a contradictory declaration",
               Plugin{.families = {{.model_type = "refused",
                                    .architecture = "RefusedForCausalLM",
                                    .factories = {{.target = "replace_norm",
                                                   .constructs = wraps("RMSNorm", "hyper_parallel.components"),
                                                   .runtime_only = "and built at runtime"}}}}});
