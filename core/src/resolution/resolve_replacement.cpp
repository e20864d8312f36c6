// The replace_module channels: a family factory (hyper_parallel.models.<family>.adapter.…) or a
// generic component named directly (hyper_parallel.components.…).
#include "common/dotted_path.hpp"
#include "famspec/names.hpp"
#include "famspec/registry_entries.hpp"
#include "resolution/option_check.hpp"
#include "resolution/replacement_builder.hpp"
#include "resolution/resolver_state.hpp"
#include "resolution/unowned_target.hpp"

namespace famspec::detail {
namespace {

std::string class_name_of(const std::optional<std::string>& dotted) {
    return dotted ? std::string(split_last(*dotted).name) : std::string();
}

// Without the rule's module_type there is no call site to rewrite, and guessing one would rewrite
// the wrong class.
Outcome<ReplacementSpec> missing_module_type() {
    return gap<ReplacementSpec>(Gap::missing_module_type,
                                "missing module_type: without the matched source class there is no call site to "
                                "rewrite (give it as the entry's module_type, or --module-type)",
                                "module_type required");
}

Resolution<ReplacementSpec> from_factory(const ResolverState& state, const ResolveRequest& request,
                                         Explanation explanation) {
    const Registry& registry = *state.registry;
    explanation.channel = "factory";
    const FamilyChoice choice = choose_family(registry, request.model_type, request.target, explanation);
    if (choice.family == nullptr) {
        return not_covered<ReplacementSpec>(Gap::unknown_family, unknown_family(choice), explanation, "unknown family");
    }
    const RegisteredFamily& family = *choice.family;
    const auto* factory = registry.find_factory(request.target);
    if (factory == nullptr || (*factory)->family != family->model_type) {
        Unanswered why = unowned_target(registry, request.target, TargetKind::replacement_factory, &family);
        return not_covered<ReplacementSpec>(why.gap, std::move(why.reason), explanation, "factory " + why.rule);
    }
    explanation.plugin = factory->plugin;
    explanation.declared("factory", request.target, factory->plugin);
    if (const std::optional<Construction>& construction = (*factory)->construction) {
        // Linked when the registry froze: a factory's component is always registered.
        if (const auto* component = registry.find_component(construction->import_module, construction->component)) {
            explanation.declared("component", defining_path(**component), component->plugin);
        }
    }
    OptionCheck options = check_options((*factory)->parameters, request.options, "factory " + request.target);
    if (options.mismatch) {
        return not_covered<ReplacementSpec>(Gap::bad_option, *options.mismatch, explanation, "factory options");
    }
    return state.built<ReplacementSpec>(
        std::move(explanation), std::move(options.diagnostics), request.strict, [&]() -> Outcome<ReplacementSpec> {
            const std::string old_ctor = class_name_of(request.module_type);
            if (old_ctor.empty()) return missing_module_type();
            if (!(*factory)->construction) {
                return runtime_only<ReplacementSpec>(
                    "runtime-only factory: " + std::string((*factory)->runtime_only_reason), "runtime-only factory");
            }
            return build_factory_replacement(registry, family, **factory, old_ctor, options.kept, *state.renderer);
        });
}

std::vector<Parameter> keyword_parameters(const Component& component) {
    std::vector<Parameter> out;
    for (const Parameter& p : component.parameters) {
        if (p.accepts_keyword()) out.push_back(p);
    }
    return out;
}

Resolution<ReplacementSpec> from_component(const ResolverState& state, const ResolveRequest& request,
                                           Explanation explanation) {
    const Registry& registry = *state.registry;
    // The family is not consulted, as the reference's direct path does not: the answer is the same
    // under any model_type, registered or not.
    explanation.channel = "direct-component";
    const auto* component = registry.find_component(request.target);
    if (component == nullptr) {
        return not_covered<ReplacementSpec>(Gap::not_registered,
                                            "target " + request.target + " names no registered component", explanation,
                                            "component lookup");
    }
    explanation.plugin = component->plugin;
    explanation.declared("component", defining_path(**component), component->plugin);
    OptionCheck options =
        check_options(keyword_parameters(**component), request.options, "component " + std::string((*component)->name));
    if (options.mismatch) {
        return not_covered<ReplacementSpec>(Gap::bad_option, *options.mismatch, explanation, "component options");
    }
    return state.built<ReplacementSpec>(std::move(explanation), std::move(options.diagnostics), request.strict,
                                        [&]() -> Outcome<ReplacementSpec> {
                                            const std::string old_ctor = class_name_of(request.module_type);
                                            if (old_ctor.empty()) return missing_module_type();
                                            return build_component_replacement(**component, old_ctor, options.kept);
                                        });
}

}  // namespace

Resolution<ReplacementSpec> ResolverState::replacement(const ResolveRequest& request) const {
    Explanation explanation;
    if (request.target.empty()) {
        return not_covered<ReplacementSpec>(Gap::no_target, "no target path", explanation, "empty target");
    }
    if (request.slot != Slot::replace_module) {
        return not_covered<ReplacementSpec>(Gap::wrong_slot,
                                            std::string(name_of(request.slot)) + " is not the replace_module slot",
                                            explanation, "wrong slot");
    }
    if (is_adapter_path(request.target)) return from_factory(*this, request, std::move(explanation));
    if (is_component_path(request.target)) {
        return from_component(*this, request, std::move(explanation));
    }
    return not_covered<ReplacementSpec>(Gap::no_channel,
                                        "target " + request.target +
                                            " is neither a family factory (hyper_parallel.models.<family>.adapter.…) "
                                            "nor a generic component (hyper_parallel.components.…)",
                                        explanation, "no channel");
}

}  // namespace famspec::detail
