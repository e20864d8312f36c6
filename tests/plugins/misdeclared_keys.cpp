// Provider modules, family keys and an archetype's words declared wrongly, each once: registration
// must be rejected, naming every mistake.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("misdeclared_keys", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    using famspec::declare::Family;
    const std::string adapter = "hyper_parallel.models.misdeclared_keys.adapter.";
    Family family{"misdeclared_keys", "MisdeclaredKeysForCausalLM"};
    family.provider(adapter + "replacements").provider(adapter + "conversion.module_replacement");
    family.factory("replace_norm").wraps("RMSNorm", "hyper_parallel.components.modules");
    // The same factory again, under the second provider: it already answers there.
    family.factory(adapter + "conversion.module_replacement.replace_norm")
        .wraps("RMSNorm", "hyper_parallel.components.modules");
    family.factory(adapter + "elsewhere.replace_other").runtime_only("not in a declared provider");
    // Two words outside the MoE vocabulary: a router the fingerprint cannot detect, a merge the runtime lacks.
    family.archetype({
        .fingerprint = {"top_k", "none", "module_list"},
        .target_class = "MisdeclaredMoE",
        .router_kind = "softmax_topk",
        .shared = "summed",
        .compute_factory = adapter + "expert_parallel.misdeclared_ep_compute_fn",
    });
    family.register_into(registrar);
    registrar.add_provider_module("misdeclared_keys", "hyper_parallel.models.other_family.adapter.replacements",
                                  "fixture:1");
    registrar.add_provider_module("misdeclared_keys", adapter + "late", "fixture:2");

    // Two directory aliases, and two architectures, that normalise alike.
    Family{"dir_a", "DirAForCausalLM"}.directory_alias("shared_dir").register_into(registrar);
    Family{"dir_b", "DirBForCausalLM"}.directory_alias("shared-dir").register_into(registrar);
    Family{"arch_a", "SharedArchForCausalLM"}.register_into(registrar);
    Family{"arch_b", "SharedArchForConditionalGeneration"}.register_into(registrar);
}
