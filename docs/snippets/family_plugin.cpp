// The plugin that docs/plugin-authors.md walks through, one declaration at a time. It is built by
// the test suite (fixture docs_family) and resolved in tests/package/docs_test.cpp.
#include "famspec/sdk/tables.hpp"

// The layout is the one docs/plugin-authors.md quotes.
// clang-format off
// [snippet:entry]
FAMSPEC_PLUGIN("docs_moe", "1.0.0", "Docs-MoE family", Plugin{
    .families = {{
        // [/snippet:entry]
        // [snippet:family]
        .model_type = "docs_moe",
        .architecture = "DocsMoeForCausalLM",
        .where = FAMSPEC_HERE,               // "file:line" of this declaration, for messages
        .aliases = {"docs"},                 // `famspec show docs` finds it too
        .directory_aliases = {"docs_moe2"},  // targets under hyper_parallel.models.docs_moe2 belong here
        // [/snippet:family]
        // [snippet:factory]
        // Where the factories live, and a later layout of the runtime: a factory answers under both.
        .providers = {"hyper_parallel.models.docs_moe.adapter.replacements",
                      "hyper_parallel.models.docs_moe.adapter.conversion.module_replacement"},
        .factories = {
            // A bare name is placed in the first provider; a full path must lie in one of them.
            {.target = "replace_docs_moe_rms_norm",
             .constructs = wraps("DocsRMSNorm", "hyper_parallel.components.docs"),
             .arguments = {bind("module_fqn"), bind("context"), bind("eps")},
             .options = {param("eps", 1e-6)},  // a static option a plan may set: eps=1e-5
             .where = FAMSPEC_HERE},
            {.target = "hyper_parallel.models.docs_moe.adapter.replacements.replace_docs_moe_experts",
             .runtime_only = "builds through GroupedExperts.from_module at runtime",
             .where = FAMSPEC_HERE},
        },
        // [/snippet:factory]
        .cp_wrappers = {
            // [snippet:cp-wrapper]
            {.target = "hyper_parallel.models.docs_moe.adapter.distributed.context_parallel."
                       "docs_moe_attention_cp_wrapper",
             .options = {param("use_flash", true)},
             .where = FAMSPEC_HERE},
            // [/snippet:cp-wrapper]
            // [snippet:cp-wrapper-values]
            {.target = "hyper_parallel.models.docs_moe.adapter.distributed.context_parallel.docs_moe_mla_cp_wrapper",
             .options = {kw_only, param("strategy", "expanded_ulysses"),
                         param("backend", "npu", one_of{"npu", "sdpa"})},
             .where = FAMSPEC_HERE},
            // [/snippet:cp-wrapper-values]
        },
        // [snippet:archetype]
        .archetypes = {{
            .fingerprint = {.router = MoeRouter::sigmoid_group, .shared_experts = SharedExperts::additive, .expert_storage = ExpertStorage::module_list},
            .kind = ArchetypeKind::moe_ep_routed,
            .target_class = "DocsMoeBlock",
            .router_kind = MoeRouter::sigmoid_group,
            .shared = SharedExperts::additive,
            .strip_boundary_subpatterns = {},
            .compute_factory = "hyper_parallel.models.docs_moe.adapter.distributed.expert_parallel."
                               "docs_moe_ep_compute_fn",
            .options = {param("use_grouped_gemm", false)},
            .where = FAMSPEC_HERE,
        }},
        // [/snippet:archetype]
    }},
    // [snippet:components]
    .components = {{
        .package = "hyper_parallel.components.docs",
        .components = {{
            .name = "DocsRMSNorm",
            .submodule = "norm",  // defined in hyper_parallel.components.docs.norm
            .signature = {param("module"), kw_only, param("eps", 1e-6), param("module_fqn", ""),
                          param("context", famspec::none)},
            .source = {},  // no source blocks: the class is imported, never rendered
            .where = FAMSPEC_HERE,
        }},
    }},
    // [/snippet:components]
// [snippet:end]
});
// [/snippet:end]
// clang-format on
