#include "famspec/resolver.hpp"

#include <algorithm>
#include <set>

#include "common/dotted_path.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/registry_entries.hpp"
#include "resolution/resolver_state.hpp"

namespace famspec {
namespace detail {

Gap strict_gap(DiagnosticKind kind) {
    switch (kind) {
        case DiagnosticKind::unregistered_wrapper:
            return Gap::not_registered;
        case DiagnosticKind::ignored_option:
            return Gap::bad_option;
        case DiagnosticKind::family_mismatch:
            return Gap::wrong_family;
        case DiagnosticKind::runtime_only:
            return Gap::runtime_only;
        case DiagnosticKind::disallowed_value:
            return Gap::bad_option;
    }
    return Gap::bad_option;  // not reached: every kind is named above
}

ResolverState::ResolverState(std::shared_ptr<const Registry> r, ResolverOptions o)
    : registry(std::move(r)),
      options(std::move(o)),
      renderer(options.renderer != nullptr ? options.renderer : &block_renderer()),
      answers(options.cache_capacity) {}

}  // namespace detail

bool target_reads_family(Slot slot, std::string_view target) {
    return slot != Slot::replace_module || !detail::is_component_path(target);
}

bool plan_reads_family(const Plan& plan) {
    return std::any_of(plan.entries.begin(), plan.entries.end(), [](const PlanEntry& entry) {
        return (entry.replace_module && target_reads_family(Slot::replace_module, entry.replace_module->path)) ||
               entry.local_compute_fn || entry.inner_wrapper;
    });
}

Resolver::Resolver(std::shared_ptr<const Registry> registry, ResolverOptions options)
    : state_(std::make_unique<detail::ResolverState>(std::move(registry), std::move(options))) {}

Resolver::~Resolver() = default;

const Registry& Resolver::registry() const { return *state_->registry; }

void Resolver::clear_cache() const { state_->answers.clear(); }

Resolution<ReplacementSpec> Resolver::replacement_spec_for(const ResolveRequest& request) const {
    return state_->answers.answer<ReplacementSpec>(request,
                                                   [this](const ResolveRequest& r) { return state_->replacement(r); });
}

Resolution<StrategySpec> Resolver::strategy_spec_for(const ResolveRequest& request) const {
    return state_->answers.answer<StrategySpec>(request,
                                                [this](const ResolveRequest& r) { return state_->strategy(r); });
}

Resolution<ReplacementSpec> Resolver::replacement_spec_for(std::string_view target,
                                                           const std::optional<std::string>& model_type,
                                                           const std::optional<std::string>& module_type,
                                                           const Options& options) const {
    return replacement_spec_for(ResolveRequest{.target = std::string(target),
                                               .model_type = model_type,
                                               .slot = Slot::replace_module,
                                               .module_type = module_type,
                                               .options = options,
                                               .strict = false});
}

Resolution<StrategySpec> Resolver::strategy_spec_for(std::string_view target,
                                                     const std::optional<std::string>& model_type, Slot slot,
                                                     const Options& options) const {
    return strategy_spec_for(ResolveRequest{.target = std::string(target),
                                            .model_type = model_type,
                                            .slot = slot,
                                            .module_type = std::nullopt,
                                            .options = options,
                                            .strict = false});
}

Resolution<std::string> Resolver::interface_component_class(std::string_view model_type) const {
    const Registry& registry = *state_->registry;
    Explanation explanation;
    FamilyLookup lookup = registry.explain_family(model_type);
    explanation.spellings_tried = std::move(lookup.spellings_tried);
    if (lookup.family == nullptr) {
        return detail::not_covered<std::string>(
            Gap::unknown_family, "unknown family '" + std::string(model_type) + "': no loaded plugin registers it",
            std::move(explanation), {});
    }
    explanation.family = std::string((*lookup.family)->model_type);
    explanation.declared("family", explanation.family, lookup.family->plugin);
    std::vector<const ReplacementFactory*> factories;
    for (const auto& factory : registry.factories()) {
        if (factory->family == (*lookup.family)->model_type) factories.push_back(factory.object.get());
    }
    std::sort(factories.begin(), factories.end(), [](auto* a, auto* b) { return a->target < b->target; });
    for (const ReplacementFactory* factory : factories) {
        const std::optional<Construction>& construction = factory->construction;
        if (!construction) continue;
        const bool hands_over = std::any_of(construction->arguments.begin(), construction->arguments.end(),
                                            [](const Argument& a) { return a.binding == ArgumentBinding::interface; });
        if (hands_over) {
            explanation.rule =
                "first factory (by target) that hands over an interface: " + std::string(factory->target);
            return {Resolved<std::string>{std::make_shared<const std::string>(construction->component)},
                    {},
                    std::make_shared<const Explanation>(std::move(explanation))};
        }
    }
    std::string reason = "family '" + explanation.family + "' hands no interface to any component";
    return detail::not_covered<std::string>(Gap::not_registered, std::move(reason), std::move(explanation), {});
}

std::vector<std::string> Resolver::external_state_classes_for(const std::optional<std::string>& model_type,
                                                              std::span<const Injection> injections) const {
    std::set<std::string> classes;
    for (const Injection& injection : injections) {
        if (!injection.local_compute_fn) continue;
        const auto answer =
            strategy_spec_for(*injection.local_compute_fn, model_type, Slot::local_compute_fn, injection.options);
        const Resolved<StrategySpec>* resolved = answer.resolved();
        if (resolved != nullptr && resolved->spec->body_template && resolved->spec->target_class) {
            classes.insert(*resolved->spec->target_class);
        }
    }
    return {classes.begin(), classes.end()};
}

}  // namespace famspec
