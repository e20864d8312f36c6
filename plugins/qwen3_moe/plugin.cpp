// Qwen3-MoE: fused GQA attention rendered into the artifact, RMSNorm and grouped experts wrapped,
// two CP wrappers and the routed-MoE EP archetype.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("qwen3_moe", "1.0.0", "Qwen3-MoE family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.qwen3_moe.adapter.";
    const std::string components = "hyper_parallel.components.modules";

    Family qwen{"qwen3_moe", "Qwen3MoeForCausalLM"};
    qwen.factory(adapter + "replacements.replace_qwen3_moe_rms_norm")
        .wraps("RMSNorm", components)
        .bind("module_fqn")
        .bind("context");
    qwen.factory(adapter + "replacements.replace_qwen3_moe_grouped_experts")
        .wraps("GroupedExperts", components)
        .bind("module_fqn")
        .bind("context");
    qwen.cp_wrapper(adapter + "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper");
    qwen.cp_wrapper(adapter + "distributed.context_parallel.qwen3_moe_flash_attention_cp_mask_wrapper");
    qwen.archetype({
        .fingerprint = {"topk_router_module", "none", "batched_parameters"},
        .kind = "moe_ep_routed",
        .target_class = "Qwen3MoeSparseMoeBlock",
        .router_kind = "topk_router_module",
        .shared = "none",
        .strip_boundary_subpatterns = {},
        .compute_factory = adapter + "distributed.expert_parallel.qwen3moe_ep_compute_fn",
        .options = {param("use_grouped_gemm", false)},
    });
    qwen.register_into(registrar);
}
