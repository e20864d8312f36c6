// The Acme-MoE family: one replacement factory, one context-parallel wrapper, one routed-MoE
// archetype and an alias, plus the small component the factory constructs. A plugin is data: the
// macro compiles these declarations into one constant block of tables that famspec reads.
#include "famspec/sdk/tables.hpp"

// Laid out by hand, one field a line: clang-format would nest it deeper than it reads.
// clang-format off
// [snippet:example-plugin]
FAMSPEC_PLUGIN("acme_moe", "1.0.0", "Acme-MoE family (out-of-tree example)", Plugin{
    .families = {{
        .model_type = "acme_moe",
        .architecture = "AcmeMoeForCausalLM",
        .where = FAMSPEC_HERE,
        .aliases = {"acme"},
        .factories = {{
            .target = "hyper_parallel.models.acme_moe.adapter.replacements.replace_acme_moe_rms_norm",
            .constructs = wraps("AcmeNorm", "acme_components.modules"),
            .arguments = {bind("module_fqn"), bind("context")},
            .where = FAMSPEC_HERE,
        }},
        .cp_wrappers = {{
            .target = "hyper_parallel.models.acme_moe.adapter.distributed.context_parallel."
                      "acme_moe_flash_attention_cp_wrapper",
            .where = FAMSPEC_HERE,
        }},
        .archetypes = {{
            .fingerprint = {.router = MoeRouter::softmax_topk, .shared_experts = SharedExperts::gated, .expert_storage = ExpertStorage::module_list},
            .kind = ArchetypeKind::moe_ep_routed,
            .target_class = "AcmeMoeSparseBlock",
            .router_kind = MoeRouter::softmax_topk,
            .shared = SharedExperts::additive,
            .strip_boundary_subpatterns = {},
            .compute_factory = "hyper_parallel.models.acme_moe.adapter.distributed.expert_parallel."
                               "acme_moe_ep_compute_fn",
            .options = {param("use_grouped_gemm", false)},
            .where = FAMSPEC_HERE,
        }},
    }},
    // The component the factory builds. A family that uses the shipped components
    // (hyper_parallel.components.modules) declares none.
    .components = {{
        .package = "acme_components.modules",
        .components = {{
            .name = "AcmeNorm",
            .submodule = "norm",
            .signature = {param("module"), kw_only, param("eps", 1e-6), param("module_fqn", ""),
                          param("context", famspec::none)},
            .source = {},
            .where = FAMSPEC_HERE,
        }},
    }},
});
// [/snippet:example-plugin]
// clang-format on
