// A valid plugin that registers one of everything a registry indexes, so tests can query each kind.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("zoo_good", "1.2.3", "famspec test fixture")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.zoo_good.adapter.";

    Family family{"zoo_good", "ZooGoodForCausalLM"};
    family.alias("zoo-good-chat").directory_alias("zoogood");
    family.factory(adapter + "replacements.replace_zoo_norm")
        .wraps("ZooNorm", "zoo.components")
        .bind("dim")
        .option("dim", 64);
    family.factory(adapter + "replacements.replace_zoo_experts").runtime_only("builds through ZooExperts.from_module");
    family.cp_wrapper(adapter + "distributed.context_parallel.zoo_cp_wrapper", {param("chunks", 2)});
    family.archetype({
        .fingerprint = {"softmax_topk", "none", "module_list"},
        .kind = "moe_ep_routed",
        .target_class = "ZooMoeBlock",
        .router_kind = "softmax_topk",
        .shared = "none",
        .strip_boundary_subpatterns = {},
        .compute_factory = adapter + "distributed.expert_parallel.zoo_ep_compute_fn",
        .options = {},
    });
    family.register_into(registrar);

    Components{"zoo.components"}
        .component(
            {.name = "ZooNorm", .submodule = "norm", .signature = {param("dim"), param("eps", 1e-6)}, .source = {}})
        .register_into(registrar);
}
