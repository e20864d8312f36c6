// Declares the same factory target twice: registration must be rejected with both declaration sites.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("duplicate_factory", "1.0.0", "famspec test fixture",
               Plugin{.families = {
                          {.model_type = "duplicate_factory",
                           .architecture = "duplicate_factoryForCausalLM",
                           .factories = {
                               {.target = "hyper_parallel.models.duplicate_factory.adapter.replacements.replace_norm",
                                .constructs = wraps("RMSNorm", "hyper_parallel.components.modules"),
                                .where = FAMSPEC_HERE},
                               {.target = "hyper_parallel.models.duplicate_factory.adapter.replacements.replace_norm",
                                .constructs = wraps("LayerNorm", "hyper_parallel.components.modules"),
                                .where = FAMSPEC_HERE},
                           }}}});
