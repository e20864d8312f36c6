// Provider modules, family keys and an archetype's words declared wrongly, each once: registration
// must be rejected, naming every mistake.
#include "famspec/sdk/tables.hpp"

#define ZOO_ADAPTER "hyper_parallel.models.misdeclared_keys.adapter."

FAMSPEC_PLUGIN(
    "misdeclared_keys", "1.0.0", "famspec test fixture",
    Plugin{.families = {
               {.model_type = "misdeclared_keys",
                .architecture = "MisdeclaredKeysForCausalLM",
                // The third is a module of another family.
                .providers = {ZOO_ADAPTER "replacements", ZOO_ADAPTER "conversion.module_replacement",
                              "hyper_parallel.models.other_family.adapter.replacements"},
                .factories =
                    {
                        {.target = "replace_norm", .constructs = wraps("RMSNorm", "hyper_parallel.components.modules")},
                        // The same factory again, under the second provider: it already answers there.
                        {.target = ZOO_ADAPTER "conversion.module_replacement.replace_norm",
                         .constructs = wraps("RMSNorm", "hyper_parallel.components.modules")},
                        {.target = ZOO_ADAPTER "elsewhere.replace_other", .runtime_only = "not in a declared provider"},
                    },
                // An archetype with no target class.
                .archetypes = {{.compute_factory = ZOO_ADAPTER "expert_parallel.misdeclared_ep_compute_fn"}}},
               // Two directory aliases, and two architectures, that normalise alike.
               {.model_type = "dir_a", .architecture = "DirAForCausalLM", .directory_aliases = {"shared_dir"}},
               {.model_type = "dir_b", .architecture = "DirBForCausalLM", .directory_aliases = {"shared-dir"}},
               {.model_type = "arch_a", .architecture = "SharedArchForCausalLM"},
               {.model_type = "arch_b", .architecture = "SharedArchForConditionalGeneration"},
           }});
