// A routed-MoE structure whose forward is replaced by the inline expert-parallel body, as the registry
// holds it. The core's copy of a family's `archetypes` row, its words already typed (the rows carry
// the SDK's enums, famspec/sdk/moe_vocabulary.hpp); an author writes tables::Archetype.
//
// Checked at registration: the keys are complete, no two archetypes share a fingerprint, and its
// family is registered by the same plugin. Read afterwards when a plan's local_compute_fn target
// names compute_factory (StrategySpec building, option checks).
#pragma once

#include <string>
#include <vector>

#include "famspec/moe_vocabulary.hpp"
#include "famspec/parameter.hpp"

namespace famspec {

struct MoeArchetype {
    std::string family{};        // model_type of the registering family
    MoeStructure fingerprint{};  // the structure key detected on the MoE block
    ArchetypeKind kind = ArchetypeKind::moe_ep_routed;
    std::string target_class{};  // the MoE block whose forward is inlined
    MoeRouter router_kind{};     // runtime router-adapter key (may differ from the fingerprint's router)
    SharedExperts shared{};      // how the shared branch merges: none | additive
    std::vector<std::string> strip_boundary_subpatterns{};
    std::string compute_factory{};     // the exact local_compute_fn _target_
    std::vector<Parameter> options{};  // static options the compute factory accepts

    friend bool operator==(const MoeArchetype&, const MoeArchetype&) = default;
};

}  // namespace famspec
