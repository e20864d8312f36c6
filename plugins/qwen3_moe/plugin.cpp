// Qwen3-MoE: RMSNorm and grouped experts wrapped, GQA attention wrapped with the family's fused
// NPU kernel handed over (so the component is rendered into the artifact), two CP wrappers and
// the routed-MoE EP archetype.
#include "famspec/sdk.hpp"
#include "qwen3_moe_assets.hpp"

FAMSPEC_PLUGIN("qwen3_moe", "1.0.0", "Qwen3-MoE family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    namespace py = famspec_assets;
    const std::string adapter = "hyper_parallel.models.qwen3_moe.adapter.";
    const std::string context_parallel = adapter + "distributed.context_parallel.";
    const std::string components = "hyper_parallel.components.modules";

    Family qwen{"qwen3_moe", "Qwen3MoeForCausalLM"};
    qwen.interface({
        {.defines = {"run_qwen3_moe_flash_attention"},
         .needs = {"torch", "torch_npu", "_get_compressed_causal_mask"},
         .imports = {"import torch", "import torch_npu"},
         .text = std::string(py::run_qwen3_moe_flash_attention)},
        {.defines = {"_get_compressed_causal_mask"},
         .needs = {"torch", "_COMPRESSED_CAUSAL_MASK_SIZE", "_COMPRESSED_CAUSAL_MASKS"},
         .imports = {"import torch"},
         .text = std::string(py::compressed_causal_mask)},
        {.defines = {"_COMPRESSED_CAUSAL_MASK_SIZE", "_COMPRESSED_CAUSAL_MASKS"},
         .needs = {},
         .imports = {},
         .text = std::string(py::compressed_causal_mask_cache)},
    });

    // Both layouts the runtime has used: plans name the factories under either.
    qwen.provider(adapter + "replacements");
    qwen.provider(adapter + "conversion.module_replacement");
    qwen.factory("replace_qwen3_moe_rms_norm").wraps("RMSNorm", components).bind("module_fqn").bind("context");
    qwen.factory("replace_qwen3_moe_flash_attention")
        .wraps("GQAAttention", components)
        .bind("module_fqn")
        .bind("context")
        .hand_over("attention_interface", "run_qwen3_moe_flash_attention");
    qwen.factory("replace_qwen3_moe_grouped_experts")
        .wraps("GroupedExperts", components)
        .bind("module_fqn")
        .bind("context");

    qwen.cp_wrapper(context_parallel + "qwen3_moe_flash_attention_cp_wrapper");
    qwen.cp_wrapper(context_parallel + "qwen3_moe_flash_attention_cp_mask_wrapper");

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
