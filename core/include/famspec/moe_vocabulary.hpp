// The words an MoE archetype is described with, as types. A plugin declares them as text (the
// SDK's MoeFingerprint and MoeArchetype, whose layout the plugin ABI fixes); the registry accepts an
// archetype only when every word is one of these, and the core works with the enums from then on.
// Their names are in names.hpp and are the words the plugins write.
#pragma once

#include <compare>

namespace famspec {

// How the block routes tokens. Also the runtime router-adapter key (an archetype's router_kind),
// which may differ from the router its fingerprint detected.
enum class MoeRouter { softmax_topk, sigmoid_group, topk_router_module };

// Whether the block has a shared-expert branch, and how the branch merges with the routed output.
enum class SharedExperts { none, gated, additive };

// How the routed experts hold their weights.
enum class ExpertStorage { module_list, batched_parameters };

// The structure key detected on an MoE block, typed: no two archetypes share one.
struct MoeStructure {
    MoeRouter router = MoeRouter::softmax_topk;
    SharedExperts shared_experts = SharedExperts::none;
    ExpertStorage expert_storage = ExpertStorage::module_list;

    friend auto operator<=>(const MoeStructure&, const MoeStructure&) = default;
};

}  // namespace famspec
