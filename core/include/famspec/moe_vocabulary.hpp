// The words an MoE archetype is described with, as types (the SDK's, which plugins write), and the
// structure key they make. Their names are in names.hpp.
#pragma once

#include <compare>

#include "famspec/sdk/moe_vocabulary.hpp"

namespace famspec {

// The structure key detected on an MoE block, typed: no two archetypes share one.
struct MoeStructure {
    MoeRouter router = MoeRouter::softmax_topk;
    SharedExperts shared_experts = SharedExperts::none;
    ExpertStorage expert_storage = ExpertStorage::module_list;

    friend auto operator<=>(const MoeStructure&, const MoeStructure&) = default;
};

}  // namespace famspec
