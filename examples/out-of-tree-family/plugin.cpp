// The Acme-MoE family: one replacement factory, one context-parallel wrapper, one routed-MoE
// archetype and an alias, plus the small component the factory constructs.
#include "famspec/sdk.hpp"

// [snippet:example-plugin]
FAMSPEC_PLUGIN("acme_moe", "1.0.0", "Acme-MoE family (out-of-tree example)")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.acme_moe.adapter.";

    // The component the factory builds. A family that uses the shipped components
    // (hyper_parallel.components.modules) does not register any.
    Components components{"acme_components.modules"};
    components.component({
        .name = "AcmeNorm",
        .submodule = "norm",
        .signature = {param("module"), kw_only, param("eps", 1e-6), param("module_fqn", ""),
                      param("context", famspec::none)},
        .source = {},
    });
    components.register_into(registrar);

    Family acme{"acme_moe", "AcmeMoeForCausalLM"};
    acme.alias("acme");
    acme.factory(adapter + "replacements.replace_acme_moe_rms_norm")
        .wraps("AcmeNorm", "acme_components.modules")
        .bind("module_fqn")
        .bind("context");
    acme.cp_wrapper(adapter + "distributed.context_parallel.acme_moe_flash_attention_cp_wrapper");
    acme.archetype({
        .fingerprint = {"softmax_topk", "gated", "module_list"},
        .kind = "moe_ep_routed",
        .target_class = "AcmeMoeSparseBlock",
        .router_kind = "softmax_topk",
        .shared = "additive",
        .strip_boundary_subpatterns = {},
        .compute_factory = adapter + "distributed.expert_parallel.acme_moe_ep_compute_fn",
        .options = {param("use_grouped_gemm", false)},
    });
    acme.register_into(registrar);
}
// [/snippet:example-plugin]
