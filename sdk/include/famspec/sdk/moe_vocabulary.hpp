// The words an MoE archetype is described with, as types: what a plugin writes in its archetype
// declarations and its table rows, and what the core works with. Their names (names.hpp in the core)
// are the words the runtime's archetype table uses.
#pragma once

namespace famspec {

// How the block routes tokens. Also the runtime router-adapter key (an archetype's router_kind),
// which may differ from the router its fingerprint detected.
enum class MoeRouter { softmax_topk, sigmoid_group, topk_router_module };

// Whether the block has a shared-expert branch, and how the branch merges with the routed output.
enum class SharedExperts { none, gated, additive };

// How the routed experts hold their weights.
enum class ExpertStorage { module_list, batched_parameters };

// The strategy an archetype stands for; a new kind is an addition to the ABI.
enum class ArchetypeKind { moe_ep_routed };

}  // namespace famspec
