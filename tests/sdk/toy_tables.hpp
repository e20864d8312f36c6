// One of each kind of declaration in the table form: sdk_table_tests checks what compile() makes of
// it, and that the core stages exactly the declarations it names.
#pragma once

#include "famspec/sdk/tables.hpp"

inline constexpr auto kToy = famspec::tables::compile([](auto use) {
    using namespace famspec::tables;
    return use(
        Identity{.name = "toy", .version = "0.3.1", .description = "one of each declaration", .compiler = "toy-cc-1"},
        Plugin{
            .families =
                {
                    {.model_type = "toy_moe",
                     .architecture = "ToyMoeForCausalLM",
                     .aliases = {"toy-moe"},
                     .directory_aliases = {"toymoe"},
                     .providers = {"hyper_parallel.models.toy_moe.adapter.replacements"},
                     .compute_functions = {"hyper_parallel.models.toy_moe.adapter.compute.local_fn"},
                     .factories =
                         {
                             {.target = "replace_norm",
                              .constructs = replaces("OffsetRMSNorm", "hyper_parallel.components.modules"),
                              .arguments = {pass("eps", "1e-6")},
                              .options = {param("chunk", 4)}},
                             {.target = "hyper_parallel.models.toy_moe.adapter.replacements.replace_linear",
                              .runtime_only = "builds through Linear.from_linear at runtime",
                              .where = "replacements.py:9"},
                             {.target = "replace_experts", .where = FAMSPEC_HERE},
                         },
                     .cp_wrappers = {{.target = "hyper_parallel.models.toy_moe.adapter.cp.cp_wrapper",
                                      .options = {kw_only, param("backend", "npu", one_of{"npu", "sdpa"})}}},
                     // Every word differs from its default and from the word beside it, so that a field
                     // read from the wrong place, or not at all, shows.
                     .archetypes = {{.fingerprint = {.router = MoeRouter::sigmoid_group,
                                                     .shared_experts = SharedExperts::gated,
                                                     .expert_storage = ExpertStorage::batched_parameters},
                                     .kind = ArchetypeKind::moe_ep_routed,
                                     .target_class = "ToyMoE",
                                     .router_kind = MoeRouter::topk_router_module,
                                     .shared = SharedExperts::additive,
                                     .strip_boundary_subpatterns = {"experts.*"},
                                     .compute_factory = "hyper_parallel.models.toy_moe.adapter.ep.ep_fn",
                                     .options = {kw_only, param("capacity", 1.25)}}}},
                    {.model_type = "toy_dense", .architecture = "ToyDenseForCausalLM"},  // a sibling identity
                },
            .components = {{.package = "hyper_parallel.components.modules",
                            .components = {{.name = "OffsetRMSNorm",
                                            .submodule = "rms_norm",
                                            .signature = {param("hidden_size", famspec::none), param("eps", 1e-05),
                                                          kw_only, param("module"), param("flag", true),
                                                          param("kernel", expression("npu_forward"))}}}}},
        });
});
