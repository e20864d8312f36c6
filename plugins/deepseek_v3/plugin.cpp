// DeepSeek-V3: low-precision factories that build at runtime only (under both provider layouts),
// the MLA CP wrapper and the routed-MoE EP archetype with an additive shared branch. DeepSeek-V2 is
// registered from the same directory as a family of its own (shared sharding rules only, so no
// replacement factories).
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("deepseek_v3", "1.0.0", "DeepSeek-V3 family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.deepseek_v3.adapter.";

    Family deepseek{"deepseek_v3", "DeepseekV3ForCausalLM"};
    deepseek.directory_alias("deepseekv2");

    // Both layouts the runtime has used, with the same factories under each.
    deepseek.provider(adapter + "replacements");
    deepseek.provider(adapter + "conversion.module_replacement");
    // They convert an existing module in place (from_module / from_linear): no constructor call to sink.
    deepseek.factory("replace_linear").runtime_only("builds through LowPrecisionLinear.from_linear at runtime");
    deepseek.factory("replace_grouped_experts").runtime_only("builds through GroupedExperts.from_module at runtime");
    deepseek.factory("replace_mxfp8_grouped_experts")
        .runtime_only("builds through MXFP8GroupedExperts.from_module at runtime");
    deepseek.factory("replace_hifloat8_grouped_experts")
        .runtime_only("builds through HiFloat8GroupedExperts.from_module at runtime");

    // The MLA context-parallel wrapper, with the static options a recipe writes next to its _target_.
    deepseek.cp_wrapper(
        adapter + "distributed.context_parallel.mla_cp_wrapper",
        {kw_only, param("strategy", "expanded_ulysses"), param("backend", "npu", one_of{"npu", "sdpa"})});

    deepseek.archetype({
        .fingerprint = {"topk_router_module", "additive", "batched_parameters"},
        .kind = "moe_ep_routed",
        .target_class = "DeepseekV3MoE",
        .router_kind = "sigmoid_group",
        .shared = "additive",
        .strip_boundary_subpatterns = {"experts.*", "shared_experts"},
        .compute_factory = "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn",
        .options = {},
    });
    deepseek.register_into(registrar);

    Family{"deepseek_v2", "DeepseekV2ForCausalLM"}.register_into(registrar);
}
