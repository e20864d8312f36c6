// The toy family registered differently: the same target now builds another component. A result
// computed from the first registration must never be reused for this one.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("toy_reregistered", "0.2.0", "Toy family, re-registered",
               Plugin{.families = {{.model_type = "toy",
                                    .architecture = "ToyForCausalLM",
                                    .where = FAMSPEC_HERE,
                                    .factories = {{.target = "hyper_parallel.models.toy.adapter."
                                                             "replacements.replace_toy_norm",
                                                   .constructs = wraps("ToyExperts", "hyper_parallel.components.toy"),
                                                   .arguments = {bind("module_fqn"), bind("context")},
                                                   .where = FAMSPEC_HERE}}}}});
