#include "famspec/resolver.hpp"

#include <algorithm>
#include <set>

#include "dotted_path.hpp"
#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/python_text.hpp"
#include "famspec/registry_entries.hpp"
#include "resolver_state.hpp"

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

FamilyChoice choose_family(const Registry& registry, const std::optional<std::string>& model_type,
                           std::string_view target, Explanation& explanation) {
    FamilyChoice choice;
    choice.requested = model_type;
    if (!choice.requested) {
        choice.requested = family_directory(target);
        choice.inferred = choice.requested.has_value();
    }
    if (!choice.requested) return choice;
    FamilyLookup lookup = registry.explain_family(*choice.requested);
    choice.family = lookup.family;
    explanation.spellings_tried = std::move(lookup.spellings_tried);
    if (choice.family != nullptr) {
        explanation.family = std::string((*choice.family)->model_type());
        explanation.declared("family", explanation.family, choice.family->plugin);
    }
    return choice;
}

std::string unknown_family(const FamilyChoice& choice) {
    return "unknown family '" + choice.requested.value_or("") + "'" +
           (choice.inferred ? " (inferred from the target path)" : "") + ": no loaded plugin registers it";
}

std::string_view family_name(const FamilyChoice& choice) {
    if (choice.family != nullptr) return (*choice.family)->model_type();
    return choice.requested ? std::string_view(*choice.requested) : std::string_view();
}

CacheKey::CacheKey(std::uint64_t generation, char channel) : text_(std::to_string(generation)) {
    text_ += '|';
    text_ += channel;
}

CacheKey& CacheKey::add(std::string_view field) {
    text_ += '|';
    text_ += std::to_string(field.size());
    text_ += ':';
    text_ += field;
    return *this;
}

CacheKey& CacheKey::add_optional(const std::optional<std::string>& field) {
    if (!field) {
        text_ += "|-";  // a present field always starts with its length
        return *this;
    }
    return add(std::string_view(*field));
}

CacheKey& CacheKey::add(const Options& options) {
    add(std::to_string(options.size()));
    for (const auto& [name, value] : options) add(name).add(to_python(value));
    return *this;
}

ResolverState::ResolverState(std::shared_ptr<const Registry> r, ResolverOptions o)
    : registry(std::move(r)),
      options(std::move(o)),
      renderer(options.renderer != nullptr ? options.renderer : &block_renderer()),
      replacements(options.cache_capacity),
      strategies(options.cache_capacity),
      replacement_answers(options.cache_capacity),
      strategy_answers(options.cache_capacity) {}

namespace {

template <class T, class Resolve>
Resolution<T> answered(AnswerCache<T>& answers, const Question& question, Resolve resolve) {
    if (auto hit = answers.find(question)) return *std::move(hit);
    Resolution<T> answer = resolve();
    answers.remember(question, answer);
    return answer;
}

// A strategy question has no module_type.
const std::optional<std::string> kNoModuleType;

// The question's tag: the slot, in lower case when strict (a strict question has its own answer).
char question_tag(Slot slot, bool strict) {
    const char tag = slot == Slot::replace_module ? 'R' : slot == Slot::local_compute_fn ? 'L' : 'W';
    return strict ? static_cast<char>(tag - 'A' + 'a') : tag;
}

}  // namespace

ResolveRequest Asked::request() const {
    return {.target = std::string(target),
            .model_type = model_type,
            .slot = slot,
            .module_type = module_type,
            .options = options,
            .strict = strict};
}

Resolution<ReplacementSpec> ResolverState::answer_replacement(const Asked& asked) const {
    return answered(replacement_answers,
                    Question(question_tag(asked.slot, asked.strict), asked.target, asked.model_type, asked.module_type,
                             asked.options),
                    [&] { return replacement(asked.request()); });
}

Resolution<StrategySpec> ResolverState::answer_strategy(const Asked& asked) const {
    return answered(
        strategy_answers,
        Question(question_tag(asked.slot, asked.strict), asked.target, asked.model_type, kNoModuleType, asked.options),
        [&] { return strategy(asked.request()); });
}

}  // namespace detail

Resolver::Resolver(std::shared_ptr<const Registry> registry, ResolverOptions options)
    : state_(std::make_unique<detail::ResolverState>(std::move(registry), std::move(options))) {}

Resolver::~Resolver() = default;

const Registry& Resolver::registry() const { return *state_->registry; }

void Resolver::clear_cache() const {
    state_->replacement_answers.clear();
    state_->strategy_answers.clear();
    state_->replacements.clear();
    state_->strategies.clear();
}

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

namespace {

SummaryEntry summary_entry(Slot slot, const Target& target, const std::optional<std::string>& module_type,
                           const auto& resolution) {
    SummaryEntry entry{.slot = slot,
                       .target = target.path,
                       .module_type = module_type,
                       .status = resolution.status(),
                       .replacement = nullptr,
                       .strategy = nullptr,
                       .reason = resolution.reason(),
                       .gap = resolution.gap(),
                       .location = target.location,
                       .diagnostics = resolution.diagnostics()};
    if (!resolution.resolved()) return entry;
    if constexpr (std::is_same_v<std::decay_t<decltype(resolution)>, Resolution<ReplacementSpec>>) {
        entry.replacement = resolution->spec;
    } else {
        entry.strategy = resolution->spec;
    }
    return entry;
}

}  // namespace

DeclarationSummary Resolver::declaration_summary(const std::optional<std::string>& model_type, const Plan& plan,
                                                 bool strict) const {
    const std::optional<std::string> family = plan_family(plan, model_type, *state_->registry).name;
    DeclarationSummary summary;
    for (const PlanEntry& entry : plan.entries) {
        if (entry.replace_module) {
            const Target& target = *entry.replace_module;
            const auto r = state_->answer_replacement(
                {target.path, family, Slot::replace_module, entry.module_type, target.options, strict});
            summary.entries.push_back(summary_entry(Slot::replace_module, target, entry.module_type, r));
        }
        for (const auto& [slot, target] : {std::pair{Slot::local_compute_fn, &entry.local_compute_fn},
                                           std::pair{Slot::inner_wrapper, &entry.inner_wrapper}}) {
            if (!*target) continue;
            const auto s = state_->answer_strategy(
                {(*target)->path, family, slot, detail::kNoModuleType, (*target)->options, strict});
            summary.entries.push_back(summary_entry(slot, **target, entry.module_type, s));
        }
    }
    return summary;
}

}  // namespace famspec
