#include "resolution/unowned_target.hpp"

#include <optional>
#include <vector>

#include "common/dotted_path.hpp"
#include "famspec/names.hpp"
#include "famspec/nearest_names.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"

namespace famspec::detail {
namespace {

struct Owner {
    TargetKind kind;
    std::string_view family;
};

std::optional<Owner> owner_of(const Registry& registry, std::string_view target) {
    if (const auto* f = registry.find_factory(target)) return Owner{TargetKind::replacement_factory, (*f)->family};
    if (const auto* a = registry.find_archetype(target)) return Owner{TargetKind::compute_factory, (*a)->family};
    if (const auto* w = registry.find_cp_wrapper(target)) return Owner{TargetKind::cp_wrapper, (*w)->family};
    if (const auto* family = registry.find_compute_function_owner(target)) {
        return Owner{TargetKind::compute_factory, (*family)->model_type};
    }
    return std::nullopt;
}

std::string_view noun(TargetKind kind) {
    switch (kind) {
        case TargetKind::replacement_factory:
            return "a replacement factory";
        case TargetKind::compute_factory:
            return "an MoE compute factory";
        case TargetKind::cp_wrapper:
            return "a CP wrapper";
    }
    return "a target";
}

// The slot each kind belongs in; its name comes from name_of like every other slot name.
Slot slot_of(TargetKind kind) {
    switch (kind) {
        case TargetKind::replacement_factory:
            return Slot::replace_module;
        case TargetKind::compute_factory:
            return Slot::local_compute_fn;
        case TargetKind::cp_wrapper:
            return Slot::inner_wrapper;
    }
    return Slot::replace_module;
}

std::string_view last_segment(std::string_view dotted) { return split_last(dotted).name; }

// Every target the family (or, without one, every family) registers, in any slot: a near miss
// may also be in the wrong slot, and the suggestion then leads to the wrong-slot message.
std::vector<std::string_view> registered_targets(const Registry& registry, const RegisteredFamily* family) {
    // The framework's (no family's) answer for every family.
    const auto mine = [&](std::string_view owner) {
        return family == nullptr || owner.empty() || owner == (*family)->model_type;
    };
    std::vector<std::string_view> out;
    for (const auto& f : registry.factories())
        if (mine(f->family)) out.push_back(f->target);
    for (const auto& a : registry.archetypes())
        if (mine(a->family)) out.push_back(a->compute_factory);
    for (const auto& w : registry.cp_wrappers())
        if (mine(w->family)) out.push_back(w->target);
    for (const auto& registered : registry.families()) {
        if (!mine(registered->model_type)) continue;
        for (const auto& target : registered->compute_functions) out.push_back(target);
    }
    return out;
}

// The registered targets whose last segment is nearest to the target's (one segment: the same
// function name may be registered under more than one module).
std::string suggestion(const Registry& registry, std::string_view target, const RegisteredFamily* family) {
    const std::vector<std::string_view> targets = registered_targets(registry, family);
    std::vector<std::string_view> segments;
    segments.reserve(targets.size());
    for (const std::string_view t : targets) segments.push_back(last_segment(t));
    std::vector<std::string> nearest;
    for (const std::string& segment : nearest_names(last_segment(target), segments, 1)) {
        for (std::size_t i = 0; i < targets.size(); ++i) {
            if (segments[i] == segment && targets[i] != target) nearest.emplace_back(targets[i]);
        }
    }
    if (nearest.size() > 3) nearest.resize(3);
    return did_you_mean(nearest);
}

}  // namespace

Unanswered unowned_target(const Registry& registry, std::string_view target, TargetKind asked,
                          const RegisteredFamily* family, std::string_view alternative) {
    const std::string name(target);
    if (const auto owner = owner_of(registry, target)) {
        const std::string of = owner->family.empty() ? std::string(" of the framework")
                                                     : " of family '" + std::string(owner->family) + "'";
        if (owner->kind != asked) {
            return {Gap::wrong_slot,
                    "wrong slot: " + name + " is " + std::string(noun(owner->kind)) + of + "; it belongs in " +
                        std::string(name_of(slot_of(owner->kind))),
                    "wrong slot"};
        }
        if (family != nullptr && !owner->family.empty() && owner->family != (*family)->model_type) {
            return {Gap::wrong_family,
                    "wrong family: " + name + " is " + std::string(noun(asked)) + of + ", not of '" +
                        std::string((*family)->model_type) + "'",
                    "wrong family"};
        }
    }
    const std::string by =
        family != nullptr ? "family '" + std::string((*family)->model_type) + "'" : std::string("any family");
    return {Gap::not_registered,
            name + " is not " + std::string(noun(asked)) + " registered by " + by + std::string(alternative) +
                suggestion(registry, target, family),
            "lookup"};
}

}  // namespace famspec::detail
