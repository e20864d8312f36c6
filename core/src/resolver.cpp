#include "famspec/resolver.hpp"

#include <algorithm>
#include <set>

#include "answer_cache.hpp"
#include "dotted_path.hpp"
#include "famspec/canonical_json.hpp"
#include "inline_channels.hpp"
#include "replacement_builder.hpp"
#include "resolution_cache.hpp"

namespace famspec {
namespace {

std::string class_name_of(const std::optional<std::string>& dotted) {
    if (!dotted) return {};
    const std::size_t dot = dotted->rfind('.');
    return dot == std::string::npos ? *dotted : dotted->substr(dot + 1);
}

// Options take part in the cache key in a canonical spelling.
std::string options_key(const Options& options) {
    std::string key;
    for (const auto& [name, value] : options) key += name + "=" + to_python(value) + ";";
    return key;
}

// Which family a lookup is about: the explicit model_type (any spelling), or the one named by an
// adapter-convention path. An explicit spelling no plugin knows never falls back to the path.
struct FamilyChoice {
    const RegisteredFamily* family = nullptr;
    std::optional<std::string> requested;  // the spelling asked for, explicit or inferred
    bool inferred = false;
    std::vector<std::string> tried;
    std::string rule;
};

FamilyChoice choose_family(const Registry& registry, const std::optional<std::string>& model_type,
                           std::string_view target) {
    FamilyChoice choice;
    choice.requested = model_type;
    if (!choice.requested) {
        choice.requested = detail::family_directory(target);
        choice.inferred = choice.requested.has_value();
    }
    if (!choice.requested) return choice;
    const FamilyLookup lookup = registry.find_family(*choice.requested);
    choice.family = lookup.family;
    choice.tried = lookup.spellings_tried;
    choice.rule = lookup.rule;
    return choice;
}

std::string unknown_family(const FamilyChoice& choice) {
    return "unknown family '" + choice.requested.value_or("") + "'" +
           (choice.inferred ? " (inferred from the target path)" : "") + ": no loaded plugin registers it";
}

template <class T>
Resolution<T> answer(const detail::Outcome<T>& outcome, Explanation explanation, bool cache_hit) {
    explanation.cache_hit = cache_hit;
    if (!outcome.plugin.empty()) explanation.plugin = outcome.plugin;
    if (!outcome.rule.empty()) explanation.rule = outcome.rule;
    return Resolution<T>{outcome.status, outcome.value, outcome.reason, outcome.gap,
                         std::make_shared<const Explanation>(std::move(explanation))};
}

template <class T>
Resolution<T> not_covered(Gap gap, std::string reason, Explanation explanation, std::string rule) {
    explanation.rule = std::move(rule);
    return Resolution<T>{ResolutionStatus::not_covered, nullptr, std::move(reason), gap,
                         std::make_shared<const Explanation>(std::move(explanation))};
}

// Without the rule's module_type there is no call site to rewrite, and guessing one would rewrite
// the wrong class.
detail::Outcome<ReplacementSpec> missing_module_type() {
    return {ResolutionStatus::not_covered,
            nullptr,
            "missing module_type: without the matched source class there is no call site to rewrite",
            {},
            "module_type required",
            Gap::missing_module_type};
}

void describe_choice(const FamilyChoice& choice, Explanation& explanation) {
    explanation.spellings_tried = choice.tried;
    if (choice.family != nullptr) explanation.family = std::string((*choice.family)->model_type());
}

}  // namespace

std::string_view gap_name(Gap gap) {
    switch (gap) {
        case Gap::none:
            return "none";
        case Gap::no_target:
            return "no_target";
        case Gap::no_channel:
            return "no_channel";
        case Gap::unknown_family:
            return "unknown_family";
        case Gap::not_registered:
            return "not_registered";
        case Gap::wrong_family:
            return "wrong_family";
        case Gap::wrong_slot:
            return "wrong_slot";
        case Gap::runtime_only:
            return "runtime_only";
        case Gap::missing_module_type:
            return "missing_module_type";
        case Gap::component_mismatch:
            return "component_mismatch";
        case Gap::bad_option:
            return "bad_option";
    }
    return "none";
}

std::string_view slot_name(Slot slot) {
    switch (slot) {
        case Slot::replace_module:
            return "replace_module";
        case Slot::local_compute_fn:
            return "local_compute_fn";
        case Slot::inner_wrapper:
            return "inner_wrapper";
    }
    return "replace_module";
}

struct Resolver::State {
    State(std::shared_ptr<const Registry> r, ResolverOptions o)
        : registry(std::move(r)),
          options(std::move(o)),
          renderer(options.renderer != nullptr ? options.renderer : &block_renderer()),
          replacements(options.cache_capacity),
          strategies(options.cache_capacity),
          replacement_answers(options.cache_capacity),
          strategy_answers(options.cache_capacity) {}

    // Every key starts with the registry generation, so nothing computed from one snapshot of the
    // declarations is ever served for another.
    std::string key(char channel, std::string_view rest) const {
        return std::to_string(registry->generation()) + "|" + channel + "|" + std::string(rest);
    }

    template <class T, class Build>
    Resolution<T> cached(detail::ResolutionCache<T>& cache, const std::string& key, Explanation explanation,
                         Build build) const {
        if (auto hit = cache.find(key)) return answer(*hit, std::move(explanation), true);
        detail::Outcome<T> outcome = build();
        // An error is a broken declaration, not a gap in coverage: the host hears of it at once.
        if (outcome.status == ResolutionStatus::error && options.log) options.log(LogLevel::error, outcome.reason);
        return answer(cache.store(key, std::move(outcome)), std::move(explanation), false);
    }

    std::shared_ptr<const Registry> registry;
    ResolverOptions options;
    const ComponentRenderer* renderer;
    mutable detail::ResolutionCache<ReplacementSpec> replacements;
    mutable detail::ResolutionCache<StrategySpec> strategies;
    // In front of both: the same question asked again is answered before anything is looked up.
    mutable detail::AnswerCache<ReplacementSpec> replacement_answers;
    mutable detail::AnswerCache<StrategySpec> strategy_answers;
};

namespace {

template <class T, class Resolve>
Resolution<T> answered(detail::AnswerCache<T>& answers, const detail::Question& question, Resolve resolve) {
    if (auto hit = answers.find(question)) return *std::move(hit);
    Resolution<T> answer = resolve();
    answers.remember(question, answer);
    return answer;
}

}  // namespace

Resolver::Resolver(std::shared_ptr<const Registry> registry, ResolverOptions options)
    : state_(std::make_unique<State>(std::move(registry), std::move(options))) {}

Resolver::~Resolver() = default;

const Registry& Resolver::registry() const { return *state_->registry; }

void Resolver::clear_cache() const {
    state_->replacement_answers.clear();
    state_->strategy_answers.clear();
    state_->replacements.clear();
    state_->strategies.clear();
}

Resolution<ReplacementSpec> Resolver::replacement_spec_for(std::string_view target,
                                                           const std::optional<std::string>& model_type,
                                                           const std::optional<std::string>& module_type,
                                                           const Options& options) const {
    return answered(state_->replacement_answers, detail::Question('R', target, model_type, module_type, options),
                    [&] { return resolve_replacement(target, model_type, module_type, options); });
}

Resolution<ReplacementSpec> Resolver::resolve_replacement(std::string_view target,
                                                          const std::optional<std::string>& model_type,
                                                          const std::optional<std::string>& module_type,
                                                          const Options& options) const {
    const Registry& registry = *state_->registry;
    Explanation explanation;
    if (target.empty())
        return not_covered<ReplacementSpec>(Gap::no_target, "no target path", explanation, "empty target");
    const std::string old_ctor = class_name_of(module_type);

    if (detail::is_adapter_path(target)) {
        explanation.channel = "factory";
        const FamilyChoice choice = choose_family(registry, model_type, target);
        describe_choice(choice, explanation);
        if (choice.family == nullptr)
            return not_covered<ReplacementSpec>(Gap::unknown_family, unknown_family(choice), explanation,
                                                "unknown family");
        const RegisteredFamily& family = *choice.family;
        const auto* factory = registry.find_factory(target);
        if (factory == nullptr || (*factory)->family() != family->model_type()) {
            return not_covered<ReplacementSpec>(Gap::not_registered,
                                                "target " + std::string(target) +
                                                    " is not a factory registered by family '" +
                                                    std::string(family->model_type()) + "'",
                                                explanation, "factory lookup");
        }
        explanation.plugin = factory->plugin;
        const std::string key = state_->key('F', std::string(family->model_type()) + "|" + std::string(target) + "|" +
                                                     module_type.value_or("\x01") + "|" + options_key(options));
        return state_->cached(state_->replacements, key, std::move(explanation),
                              [&]() -> detail::Outcome<ReplacementSpec> {
                                  if (old_ctor.empty()) return missing_module_type();
                                  if ((*factory)->construction() == nullptr) {
                                      return {ResolutionStatus::not_covered,
                                              nullptr,
                                              "runtime-only factory: " + std::string((*factory)->runtime_only_reason()),
                                              {},
                                              "runtime-only factory",
                                              Gap::runtime_only};
                                  }
                                  return detail::build_factory_replacement(registry, family, **factory, old_ctor,
                                                                           options, *state_->renderer);
                              });
    }

    if (target.starts_with(channels::kComponentsRoot)) {
        explanation.channel = "direct-component";
        if (model_type) {
            const FamilyChoice choice = choose_family(registry, model_type, target);
            describe_choice(choice, explanation);
            if (choice.family == nullptr) {
                return not_covered<ReplacementSpec>(Gap::unknown_family, unknown_family(choice), explanation,
                                                    "unknown family");
            }
        }
        const auto* component = registry.find_component(target);
        if (component == nullptr) {
            return not_covered<ReplacementSpec>(Gap::not_registered,
                                                "target " + std::string(target) + " names no registered component",
                                                explanation, "component lookup");
        }
        explanation.plugin = component->plugin;
        // The family plays no part in a direct component, so it is not in the key: every spelling,
        // and both the package and the defining-module path, share one object.
        const std::string key =
            state_->key('D', std::string((*component)->defining_module()) + "." + std::string((*component)->name()) +
                                 "|" + module_type.value_or("\x01") + "|" + options_key(options));
        return state_->cached(state_->replacements, key, std::move(explanation),
                              [&]() -> detail::Outcome<ReplacementSpec> {
                                  if (old_ctor.empty()) return missing_module_type();
                                  return detail::build_component_replacement(**component, old_ctor, options);
                              });
    }

    return not_covered<ReplacementSpec>(Gap::no_channel,
                                        "target " + std::string(target) +
                                            " is neither a family factory (hyper_parallel.models.<family>.adapter.…) "
                                            "nor a generic component (hyper_parallel.components.…)",
                                        explanation, "no channel");
}

namespace {

std::optional<std::string> check_strategy_options(std::span<const Parameter> declared, const Options& options,
                                                  std::string_view target) {
    for (const auto& [name, value] : options) {
        // An init-capture: clang before 16 cannot capture a structured binding directly.
        const auto it = std::find_if(declared.begin(), declared.end(),
                                     [&option = name](const auto& p) { return p.name == option; });
        if (it == declared.end()) {
            return "unknown option '" + name + "': " + std::string(target) + " declares no such option";
        }
        if (auto mismatch = detail::option_type_mismatch(*it, value)) return mismatch;
    }
    return std::nullopt;
}

}  // namespace

Resolution<StrategySpec> Resolver::strategy_spec_for(std::string_view target,
                                                     const std::optional<std::string>& model_type, Slot slot,
                                                     const Options& options) const {
    static const std::optional<std::string> kNoModuleType;
    const char tag = slot == Slot::local_compute_fn ? 'L' : slot == Slot::inner_wrapper ? 'W' : 'S';
    return answered(state_->strategy_answers, detail::Question(tag, target, model_type, kNoModuleType, options),
                    [&] { return resolve_strategy(target, model_type, slot, options); });
}

Resolution<StrategySpec> Resolver::resolve_strategy(std::string_view target,
                                                    const std::optional<std::string>& model_type, Slot slot,
                                                    const Options& options) const {
    const Registry& registry = *state_->registry;
    Explanation explanation;
    if (target.empty()) return not_covered<StrategySpec>(Gap::no_target, "no target path", explanation, "empty target");
    if (slot == Slot::replace_module) {
        return not_covered<StrategySpec>(Gap::wrong_slot, "replace_module is not a strategy slot", explanation,
                                         "wrong slot");
    }
    const FamilyChoice choice = choose_family(registry, model_type, target);
    describe_choice(choice, explanation);
    if (model_type && choice.family == nullptr) {
        return not_covered<StrategySpec>(Gap::unknown_family, unknown_family(choice), explanation, "unknown family");
    }
    const auto* archetype = registry.find_archetype(target);
    const auto* wrapper = registry.find_cp_wrapper(target);

    if (slot == Slot::local_compute_fn) {
        explanation.channel = "archetype";
        if (archetype == nullptr) {
            if (wrapper != nullptr) {
                return not_covered<StrategySpec>(
                    Gap::wrong_slot,
                    "wrong slot: " + std::string(target) + " is a CP wrapper; it belongs in inner_wrapper", explanation,
                    "wrong slot");
            }
            if (const auto* owner = registry.find_compute_function_owner(target)) {
                return not_covered<StrategySpec>(Gap::runtime_only,
                                                 "runtime-only compute function: " + std::string(target) +
                                                     " belongs to family '" + std::string((*owner)->model_type()) +
                                                     "' and matches no MoE archetype",
                                                 explanation, "compute function without archetype");
            }
            return not_covered<StrategySpec>(
                Gap::not_registered,
                std::string(target) + " is not the compute factory of any registered MoE archetype", explanation,
                "archetype lookup");
        }
        explanation.plugin = archetype->plugin;
        if (auto problem = check_strategy_options((*archetype)->options(), options, target)) {
            return not_covered<StrategySpec>(Gap::bad_option, *problem, explanation, "archetype options");
        }
        // Archetypes are keyed by structure, not by family: the key is the compute factory alone.
        return state_->cached(
            state_->strategies, state_->key('E', target), std::move(explanation),
            [&]() -> detail::Outcome<StrategySpec> {
                const MoeArchetype& a = **archetype;
                auto spec = std::make_shared<StrategySpec>();
                spec->kind = std::string(a.kind());
                spec->target_class = std::string(a.target_class());
                spec->body_template = moe_ep_forward_body(a.router_kind(), a.shared());
                spec->imports.push_back(
                    {std::string(channels::kEpModule), {std::string(channels::kEpEntry)}, std::nullopt});
                const auto strip = a.strip_boundary_subpatterns();
                spec->strip_boundary_subpatterns.assign(strip.begin(), strip.end());
                if (auto invalid = validation_error(*spec)) {
                    return {ResolutionStatus::error, nullptr, *invalid, {}, "archetype"};
                }
                return {ResolutionStatus::resolved, std::move(spec), {}, {}, "archetype compute factory"};
            });
    }

    explanation.channel = "cp-wrapper";
    if (wrapper == nullptr) {
        if (archetype != nullptr) {
            return not_covered<StrategySpec>(
                Gap::wrong_slot,
                "wrong slot: " + std::string(target) + " is an MoE compute factory; it belongs in local_compute_fn",
                explanation, "wrong slot");
        }
        const std::string owner =
            choice.family != nullptr ? " by family '" + std::string((*choice.family)->model_type()) + "'" : "";
        return not_covered<StrategySpec>(Gap::not_registered,
                                         std::string(target) + " is not a CP wrapper registered" + owner, explanation,
                                         "cp wrapper lookup");
    }
    if (choice.family == nullptr || (*choice.family)->model_type() != (*wrapper)->family()) {
        const std::string asked = choice.family != nullptr ? std::string((*choice.family)->model_type())
                                                           : choice.requested.value_or("(none)");
        return not_covered<StrategySpec>(Gap::wrong_family,
                                         "CP wrapper " + std::string(target) + " is registered by family '" +
                                             std::string((*wrapper)->family()) + "', not by '" + asked + "'",
                                         explanation, "cp wrapper family");
    }
    explanation.plugin = wrapper->plugin;
    if (auto problem = check_strategy_options((*wrapper)->options(), options, target)) {
        return not_covered<StrategySpec>(Gap::bad_option, *problem, explanation, "cp wrapper options");
    }
    return state_->cached(state_->strategies, state_->key('C', target), std::move(explanation),
                          []() -> detail::Outcome<StrategySpec> {
                              auto spec = std::make_shared<StrategySpec>();
                              spec->kind = kCpAttentionKind;  // imports-only: marks coverage, patches nothing
                              return {ResolutionStatus::resolved, std::move(spec), {}, {}, "registered CP wrapper"};
                          });
}

Resolution<std::string> Resolver::interface_component_class(std::string_view model_type) const {
    const Registry& registry = *state_->registry;
    Explanation explanation;
    const FamilyLookup lookup = registry.find_family(model_type);
    explanation.spellings_tried = lookup.spellings_tried;
    if (lookup.family == nullptr) {
        return {ResolutionStatus::not_covered, nullptr,
                "unknown family '" + std::string(model_type) + "': no loaded plugin registers it", Gap::unknown_family,
                std::make_shared<const Explanation>(std::move(explanation))};
    }
    explanation.family = std::string((*lookup.family)->model_type());
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
            return {ResolutionStatus::resolved,
                    std::make_shared<const std::string>(construction->component),
                    {},
                    Gap::none,
                    std::make_shared<const Explanation>(std::move(explanation))};
        }
    }
    return {ResolutionStatus::not_covered, nullptr,
            "family '" + explanation.family + "' hands no interface to any component", Gap::not_registered,
            std::make_shared<const Explanation>(std::move(explanation))};
}

std::vector<std::string> Resolver::external_state_classes_for(const std::optional<std::string>& model_type,
                                                              std::span<const Injection> injections) const {
    std::set<std::string> classes;
    for (const Injection& injection : injections) {
        if (!injection.local_compute_fn) continue;
        const auto spec =
            strategy_spec_for(*injection.local_compute_fn, model_type, Slot::local_compute_fn, injection.options);
        if (spec.resolved() && spec.value->body_template && spec.value->target_class) {
            classes.insert(*spec.value->target_class);
        }
    }
    return {classes.begin(), classes.end()};
}

DeclarationSummary Resolver::declaration_summary(const std::optional<std::string>& model_type, const Plan& plan) const {
    const std::optional<std::string> family = effective_model_type(plan, model_type);
    DeclarationSummary summary;
    for (const PlanEntry& entry : plan.entries) {
        if (entry.replace_module) {
            const auto r = replacement_spec_for(entry.replace_module->path, family, entry.module_type,
                                                entry.replace_module->options);
            summary.entries.push_back({Slot::replace_module, entry.replace_module->path, entry.module_type, r.status,
                                       r.value, nullptr, r.reason, r.gap, entry.replace_module->location});
        }
        for (const auto& [slot, target] : {std::pair{Slot::local_compute_fn, &entry.local_compute_fn},
                                           std::pair{Slot::inner_wrapper, &entry.inner_wrapper}}) {
            if (!*target) continue;
            const auto s = strategy_spec_for((*target)->path, family, slot, (*target)->options);
            summary.entries.push_back({slot, (*target)->path, entry.module_type, s.status, nullptr, s.value, s.reason,
                                       s.gap, (*target)->location});
        }
    }
    return summary;
}

}  // namespace famspec
