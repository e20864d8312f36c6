// A toy family exercising every declaration kind and every way a declaration can fall short.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("toy", "0.1.0", "Toy family for resolution tests")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string replacements = "hyper_parallel.models.toy.adapter.replacements.";
    const std::string components = "hyper_parallel.components.toy";

    Family toy{"toy", "ToyForCausalLM"};
    toy.alias("toy_text").directory_alias("toydir");
    toy.interface({{.defines = {"toy_kernel"},
                    .needs = {},
                    .imports = {},
                    .text = "def toy_kernel(query, key, value):\n    return query\n"}});
    toy.factory(replacements + "replace_toy_norm").wraps("ToyNorm", components).bind("module_fqn").bind("context");
    toy.factory(replacements + "replace_toy_norm_by_name").replaces("ToyNorm", components);
    toy.factory(replacements + "replace_toy_experts")
        .wraps("ToyExperts", components)
        .bind("module_fqn")
        .bind("context")
        .option("use_fused_ops", true)
        .bind("use_fused_ops");
    toy.factory(replacements + "replace_toy_no_fqn").wraps("ToyNoFqn", components).bind("module_fqn");
    toy.factory(replacements + "replace_toy_runtime").runtime_only("builds through ToyNorm.from_module");
    toy.factory(replacements + "replace_toy_attention")
        .wraps("ToyAttention", components)
        .bind("module_fqn")
        .bind("context")
        .hand_over("attention_interface", "toy_kernel");
    // Binds the keyword whose component default is not a literal: cannot be rendered.
    toy.factory(replacements + "replace_toy_attention_default")
        .wraps("ToyAttention", components)
        .bind("module_fqn")
        .option("kernel", famspec::none)
        .bind("attention_interface", "kernel");
    toy.factory(replacements + "replace_toy_literal").wraps("ToyNorm", components).pass("eps", "1e-3");
    toy.factory("hyper_parallel.models.toydir.adapter.replacements.replace_toy_dir_norm")
        .wraps("ToyNorm", components)
        .bind("module_fqn")
        .bind("context");
    toy.cp_wrapper("hyper_parallel.models.toy.adapter.distributed.context_parallel.toy_cp_wrapper",
                   {param("use_mask", false)});
    toy.archetype({
        .fingerprint = {"softmax_topk", "gated", "module_list"},
        .kind = "moe_ep_routed",
        .target_class = "ToyMoE",
        .router_kind = "softmax_topk",
        .shared = "gated",
        .strip_boundary_subpatterns = {"experts.*"},
        .compute_factory = "hyper_parallel.models.toy.adapter.distributed.expert_parallel.toy_ep_compute_fn",
        .options = {param("use_grouped_gemm", false)},
    });
    toy.compute_function("hyper_parallel.models.toy.adapter.distributed.expert_parallel.toy_engram_compute_fn");
    toy.register_into(registrar);

    // A second family, so that a CP wrapper can be asked for under the wrong family.
    Family other{"other_toy", "OtherToyForCausalLM"};
    other.register_into(registrar);
}
