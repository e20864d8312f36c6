// A valid plugin that registers one of everything a registry indexes, so tests can query each kind.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN(
    "zoo_good", "1.2.3", "famspec test fixture",
    Plugin{.families = {{.model_type = "zoo_good",
                         .architecture = "ZooGoodForCausalLM",
                         .aliases = {"zoo-good-chat"},
                         .directory_aliases = {"zoogood"},
                         .factories =
                             {
                                 {.target = "hyper_parallel.models.zoo_good.adapter.replacements.replace_zoo_norm",
                                  .constructs = wraps("ZooNorm", "zoo.components"),
                                  .arguments = {bind("dim")},
                                  .options = {param("dim", 64)}},
                                 {.target = "hyper_parallel.models.zoo_good.adapter.replacements.replace_zoo_experts",
                                  .runtime_only = "builds through ZooExperts.from_module"},
                             },
                         .cp_wrappers = {{.target = "hyper_parallel.models.zoo_good.adapter.distributed.context_"
                                                    "parallel.zoo_cp_wrapper",
                                          .options = {param("chunks", 2)}}},
                         .archetypes = {{.fingerprint = {.router = MoeRouter::softmax_topk,
                                                         .shared_experts = SharedExperts::none,
                                                         .expert_storage = ExpertStorage::module_list},
                                         .kind = ArchetypeKind::moe_ep_routed,
                                         .target_class = "ZooMoeBlock",
                                         .router_kind = MoeRouter::softmax_topk,
                                         .shared = SharedExperts::none,
                                         .compute_factory = "hyper_parallel.models.zoo_good.adapter.distributed."
                                                            "expert_parallel.zoo_ep_compute_fn"}}}},
           .components = {
               {.package = "zoo.components",
                .components = {
                    {.name = "ZooNorm", .submodule = "norm", .signature = {param("dim"), param("eps", 1e-6)}}}}}});
