// The strategy channels: an MoE archetype's compute factory (local_compute_fn) and a CP attention
// wrapper (inner_wrapper). As in the reference, an archetype resolves by its target whatever family
// is named, and any inner wrapper under the adapter convention is covered imports-only; where
// famspec knows better, it says so in a diagnostic.
#include <algorithm>

#include "common/dotted_path.hpp"
#include "famspec/names.hpp"
#include "famspec/python_text.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/specs.hpp"
#include "famspec/strategy_check.hpp"
#include "resolution/inline_channels.hpp"
#include "resolution/option_check.hpp"
#include "resolution/resolver_state.hpp"
#include "resolution/unowned_target.hpp"

namespace famspec::detail {
namespace {

Outcome<StrategySpec> ep_spec(const Registered<MoeArchetype>& archetype) {
    const MoeArchetype& a = *archetype;
    auto spec = std::make_shared<StrategySpec>();
    spec->kind = std::string(name_of(a.kind));
    spec->target_class = std::string(a.target_class);
    spec->body_template = moe_ep_forward_body(a.router_kind, a.shared);
    spec->imports.push_back({std::string(channels::kEpModule), {std::string(channels::kEpEntry)}, std::nullopt});
    const auto& strip = a.strip_boundary_subpatterns;
    spec->strip_boundary_subpatterns.assign(strip.begin(), strip.end());
    if (auto invalid = validation_error(*spec)) return broken<StrategySpec>(*invalid, {}, "archetype");
    return covered<StrategySpec>(std::move(spec), "archetype compute factory");
}

// hyper_parallel.models.<family>.adapter.<attr…>: the shape the reference covers as a CP wrapper.
bool names_adapter_attribute(std::string_view target) {
    if (!is_adapter_path(target)) return false;
    const std::size_t adapter = target.find(".adapter.");
    return adapter != std::string_view::npos && adapter + 9 < target.size();
}

Resolution<StrategySpec> from_archetype(const ResolverState& state, const ResolveRequest& request,
                                        const FamilyChoice& choice, Explanation explanation) {
    const Registry& registry = *state.registry;
    explanation.channel = "archetype";
    const auto* archetype = registry.find_archetype(request.target);
    if (archetype == nullptr) {
        if (const auto* owner = registry.find_compute_function_owner(request.target)) {
            explanation.plugin = owner->plugin;
            explanation.declared("compute-function", request.target, owner->plugin);
            const auto native =
                runtime_only<StrategySpec>("runtime-only compute function: " + request.target + " belongs to family '" +
                                               std::string((*owner)->model_type) + "' and matches no MoE archetype",
                                           "compute function without archetype");
            return finish(native, std::move(explanation), false, {}, request.strict);
        }
        Unanswered why = unowned_target(registry, request.target, TargetKind::compute_factory, choice.family);
        return not_covered<StrategySpec>(why.gap, std::move(why.reason), explanation, "archetype " + why.rule);
    }
    explanation.plugin = archetype->plugin;
    explanation.declared("archetype", request.target, archetype->plugin);
    OptionCheck options = check_options((*archetype)->options, request.options, "archetype " + request.target);
    if (options.mismatch) {
        return not_covered<StrategySpec>(Gap::bad_option, *options.mismatch, explanation, "archetype options");
    }
    // The framework's archetypes (no family's) answer under any family, as the reference's table does.
    const std::string_view owner = (*archetype)->family;
    if (!owner.empty() && choice.requested && (choice.family == nullptr || (*choice.family)->model_type != owner)) {
        options.diagnostics.push_back({DiagnosticKind::family_mismatch,
                                       "the MoE archetype " + request.target + " is registered by family '" +
                                           std::string(owner) + "', not by '" + std::string(family_name(choice)) + "'" +
                                           (choice.family == nullptr ? " (an unknown family)" : ""),
                                       std::string(owner)});
    }
    return state.built<StrategySpec>(std::move(explanation), std::move(options.diagnostics), request.strict,
                                     [&]() { return ep_spec(*archetype); });
}

// Whether the chosen family declares the wrapper, or borrows it from the family that does.
bool answers_for(const FamilyChoice& choice, const Registered<CpWrapper>& wrapper) {
    if (choice.family == nullptr) return false;
    if ((*choice.family)->model_type == wrapper->family) return true;
    const auto& borrowed = choice.family->borrowed_cp_wrappers;
    return std::binary_search(borrowed.begin(), borrowed.end(), wrapper->target);
}

Resolution<StrategySpec> from_cp_wrapper(const ResolverState& state, const ResolveRequest& request,
                                         const FamilyChoice& choice, Explanation explanation) {
    const Registry& registry = *state.registry;
    explanation.channel = "cp-wrapper";
    const auto* wrapper = registry.find_cp_wrapper(request.target);
    // An MoE compute factory is never a wrapper, even under the adapter convention: the reference
    // answers CP from the path shape alone and would take it for one.
    if (wrapper == nullptr &&
        (registry.find_archetype(request.target) != nullptr || !names_adapter_attribute(request.target))) {
        Unanswered why = unowned_target(registry, request.target, TargetKind::cp_wrapper, choice.family,
                                        ", nor under hyper_parallel.models.<family>.adapter.<name>");
        return not_covered<StrategySpec>(why.gap, std::move(why.reason), explanation, "cp wrapper " + why.rule);
    }
    std::vector<Diagnostic> diagnostics;
    const std::string asked = choice.requested ? std::string(family_name(choice)) : "(none)";
    if (wrapper == nullptr) {
        diagnostics.push_back({DiagnosticKind::unregistered_wrapper,
                               "CP wrapper " + request.target + " is not registered by family '" + asked +
                                   "'; covered by the adapter-path convention",
                               {}});
    } else {
        explanation.plugin = wrapper->plugin;
        explanation.declared("cp-wrapper", request.target, wrapper->plugin);
        // The framework's wrappers answer for any family, and a family answers for a wrapper it borrows.
        const std::string_view owner = (*wrapper)->family;
        if (!owner.empty() && !answers_for(choice, *wrapper)) {
            diagnostics.push_back({DiagnosticKind::unregistered_wrapper,
                                   "CP wrapper " + request.target + " is registered by family '" +
                                       std::string((*wrapper)->family) + "', not by '" + asked + "'",
                                   std::string((*wrapper)->family)});
        }
    }
    OptionCheck options = check_options(wrapper != nullptr ? (*wrapper)->options : std::span<const Parameter>{},
                                        request.options, "CP wrapper " + request.target);
    if (options.mismatch) {
        return not_covered<StrategySpec>(Gap::bad_option, *options.mismatch, explanation, "cp wrapper options");
    }
    diagnostics.insert(diagnostics.end(), options.diagnostics.begin(), options.diagnostics.end());
    return state.built<StrategySpec>(std::move(explanation), std::move(diagnostics), request.strict,
                                     [registered = wrapper != nullptr]() -> Outcome<StrategySpec> {
                                         auto spec = std::make_shared<StrategySpec>();
                                         spec->kind = "cp_attention";  // imports-only: marks coverage, patches nothing
                                         return covered<StrategySpec>(std::move(spec), registered
                                                                                           ? "registered CP wrapper"
                                                                                           : "adapter-path CP wrapper");
                                     });
}

}  // namespace

Resolution<StrategySpec> ResolverState::strategy(const ResolveRequest& request) const {
    Explanation explanation;
    if (request.target.empty()) {
        return not_covered<StrategySpec>(Gap::no_target, "no target path", explanation, "empty target");
    }
    if (request.slot == Slot::replace_module) {
        return not_covered<StrategySpec>(Gap::wrong_slot, "replace_module is not a strategy slot", explanation,
                                         "wrong slot");
    }
    const FamilyChoice choice = choose_family(*registry, request.model_type, request.target, explanation);
    if (request.slot == Slot::local_compute_fn) return from_archetype(*this, request, choice, std::move(explanation));
    return from_cp_wrapper(*this, request, choice, std::move(explanation));
}

}  // namespace famspec::detail
