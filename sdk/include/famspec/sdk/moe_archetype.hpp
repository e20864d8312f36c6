// A routed-MoE structure whose forward is replaced by the inline expert-parallel body.
//
// Checked at registration: the fingerprint and the keys are complete and unique, and its family is
// registered by the same plugin. Asked afterwards when a plan's local_compute_fn target names
// compute_factory() (StrategySpec building, option checks). The contract every interface keeps
// (threads, no throwing, lifetimes) is in famspec/sdk/interfaces.hpp. The core implements it from a
// plugin's table row (`archetypes` of a family, table_declarations.hpp).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "famspec/sdk/parameter.hpp"

namespace famspec {

// The structure key detected on a MoE block: (router, shared_experts, expert_storage).
struct MoeFingerprint {
    std::string router;          // softmax_topk | sigmoid_group | topk_router_module
    std::string shared_experts;  // none | gated | additive
    std::string expert_storage;  // module_list | batched_parameters

    friend bool operator==(const MoeFingerprint&, const MoeFingerprint&) = default;
};

class MoeArchetype {
public:
    virtual ~MoeArchetype() = default;  // inline: see FamilyAdapter

    virtual std::string_view family() const = 0;  // model_type of the registering family
    virtual const MoeFingerprint& fingerprint() const = 0;
    virtual std::string_view kind() const = 0;          // e.g. "moe_ep_routed"
    virtual std::string_view target_class() const = 0;  // the MoE block whose forward is inlined
    virtual std::string_view router_kind() const = 0;   // runtime router-adapter key (may differ from the fingerprint)
    virtual std::string_view shared() const = 0;        // how the shared branch merges: none | additive
    virtual std::span<const std::string> strip_boundary_subpatterns() const = 0;
    virtual std::string_view compute_factory() const = 0;    // the exact local_compute_fn _target_
    virtual std::span<const Parameter> options() const = 0;  // static options the compute factory accepts
};

}  // namespace famspec
