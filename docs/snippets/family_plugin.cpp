// The plugin that docs/plugin-authors.md walks through, one declaration at a time. It is built by
// the test suite (fixture docs_family) and resolved in tests/package/docs_test.cpp.
#include "famspec/sdk.hpp"

// [snippet:entry]
FAMSPEC_PLUGIN("docs_moe", "1.0.0", "Docs-MoE family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    // [/snippet:entry]
    const std::string adapter = "hyper_parallel.models.docs_moe.adapter.";

    // [snippet:components]
    Components components{"hyper_parallel.components.docs"};
    components.component({
        .name = "DocsRMSNorm",
        .submodule = "norm",  // defined in hyper_parallel.components.docs.norm
        .signature = {param("module"), kw_only, param("eps", 1e-6), param("module_fqn", ""),
                      param("context", famspec::none)},
        .source = {},  // no source blocks: the class is imported, never rendered
    });
    components.register_into(registrar);
    // [/snippet:components]

    // [snippet:family]
    Family family{"docs_moe", "DocsMoeForCausalLM"};
    family.alias("docs");                 // `famspec show docs` finds it too
    family.directory_alias("docs_moe2");  // targets under hyper_parallel.models.docs_moe2 belong here
    // [/snippet:family]

    // [snippet:factory]
    // Where the factories live, and a later layout of the runtime: a factory answers under both.
    family.provider(adapter + "replacements");
    family.provider(adapter + "conversion.module_replacement");
    // A bare name is placed in the first provider; a full path must lie in one of them.
    family.factory("replace_docs_moe_rms_norm")
        .wraps("DocsRMSNorm", "hyper_parallel.components.docs")
        .bind("module_fqn")
        .bind("context")
        .option("eps", 1e-6)  // a static option a plan may set: eps=1e-5
        .bind("eps");
    family.factory(adapter + "replacements.replace_docs_moe_experts")
        .runtime_only("builds through GroupedExperts.from_module at runtime");
    // [/snippet:factory]

    // [snippet:archetype]
    family.archetype({
        .fingerprint = {"sigmoid_group", "additive", "module_list"},
        .kind = "moe_ep_routed",
        .target_class = "DocsMoeBlock",
        .router_kind = "sigmoid_group",
        .shared = "additive",
        .strip_boundary_subpatterns = {},
        .compute_factory = adapter + "distributed.expert_parallel.docs_moe_ep_compute_fn",
        .options = {param("use_grouped_gemm", false)},
    });
    // [/snippet:archetype]

    // [snippet:cp-wrapper]
    family.cp_wrapper(adapter + "distributed.context_parallel.docs_moe_attention_cp_wrapper",
                      {param("use_flash", true)});
    // [/snippet:cp-wrapper]

    // [snippet:cp-wrapper-values]
    family.cp_wrapper(adapter + "distributed.context_parallel.docs_moe_mla_cp_wrapper",
                      {kw_only, param("strategy", "expanded_ulysses"), param("backend", "npu", one_of{"npu", "sdpa"})});
    // [/snippet:cp-wrapper-values]

    // [snippet:register]
    family.register_into(registrar);
}
// [/snippet:register]
