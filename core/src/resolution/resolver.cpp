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
    return Gap::none;
}

ResolverState::ResolverState(std::shared_ptr<const Registry> r, ResolverOptions o)
    : registry(std::move(r)),
      options(std::move(o)),
      renderer(options.renderer != nullptr ? options.renderer : &block_renderer()),
      answers(options.cache_capacity) {}

namespace {

template <class T, class Resolve>
Resolution<T> answered(AnswerCache& answers, const RequestView& request, Resolve resolve) {
    const std::size_t hash = request_hash(request);
    if (auto hit = answers.find<T>(request, hash)) return *std::move(hit);
    return answers.remember(request, hash, resolve(request.request()));
}

}  // namespace

Resolution<ReplacementSpec> ResolverState::answer_replacement(const RequestView& request) const {
    const auto resolve = [this](const ResolveRequest& r) { return replacement(r); };
    // A component named directly does not depend on the family: one cache entry, one spec object, for
    // every model_type.
    if (is_component_path(request.target)) {
        static const std::optional<std::string> kAnyFamily;
        return answered<ReplacementSpec>(
            answers, {request.target, kAnyFamily, request.slot, request.module_type, request.options, request.strict},
            resolve);
    }
    return answered<ReplacementSpec>(answers, request, resolve);
}

Resolution<StrategySpec> ResolverState::answer_strategy(const RequestView& request) const {
    return answered<StrategySpec>(
        answers, {request.target, request.model_type, request.slot, kNoModuleType, request.options, request.strict},
        [this](const ResolveRequest& r) { return strategy(r); });
}

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
    return state_->answer_replacement(
        {request.target, request.model_type, request.slot, request.module_type, request.options, request.strict});
}

Resolution<StrategySpec> Resolver::strategy_spec_for(const ResolveRequest& request) const {
    return state_->answer_strategy(
        {request.target, request.model_type, request.slot, request.module_type, request.options, request.strict});
}

Resolution<ReplacementSpec> Resolver::replacement_spec_for(std::string_view target,
                                                           const std::optional<std::string>& model_type,
                                                           const std::optional<std::string>& module_type,
                                                           const Options& options) const {
    return state_->answer_replacement({target, model_type, Slot::replace_module, module_type, options, false});
}

Resolution<StrategySpec> Resolver::strategy_spec_for(std::string_view target,
                                                     const std::optional<std::string>& model_type, Slot slot,
                                                     const Options& options) const {
    return state_->answer_strategy({target, model_type, slot, detail::kNoModuleType, options, false});
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
    explanation.family = std::string((*lookup.family)->model_type());
    explanation.declared("family", explanation.family, lookup.family->plugin);
    std::vector<const ReplacementFactory*> factories;
    for (const auto& factory : registry.factories()) {
        if (factory->family() == (*lookup.family)->model_type()) factories.push_back(factory.object.get());
    }
    std::sort(factories.begin(), factories.end(), [](auto* a, auto* b) { return a->target() < b->target(); });
    for (const ReplacementFactory* factory : factories) {
        const Construction* construction = factory->construction();
        if (construction == nullptr) continue;
        const bool hands_over = std::any_of(construction->arguments.begin(), construction->arguments.end(),
                                            [](const Argument& a) { return a.binding == ArgumentBinding::interface; });
        if (hands_over) {
            explanation.rule =
                "first factory (by target) that hands over an interface: " + std::string(factory->target());
            return {Covered<std::string>{.spec = std::make_shared<const std::string>(construction->component),
                                         .diagnostics = {}},
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
        const auto spec =
            strategy_spec_for(*injection.local_compute_fn, model_type, Slot::local_compute_fn, injection.options);
        if (spec.resolved() && spec->spec->body_template && spec->spec->target_class) {
            classes.insert(*spec->spec->target_class);
        }
    }
    return {classes.begin(), classes.end()};
}

}  // namespace famspec
