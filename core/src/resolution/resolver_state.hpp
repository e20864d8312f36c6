// What the resolver's channels share: the registry snapshot, the one cache and how one answer is put
// together (diagnostics, strictness). Private to the resolver.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/component_renderer.hpp"
#include "famspec/explanation.hpp"
#include "famspec/log.hpp"
#include "famspec/names.hpp"
#include "famspec/resolver.hpp"
#include "registry/family_choice.hpp"
#include "resolution/answer_cache.hpp"
#include "resolution/outcome.hpp"

namespace famspec::detail {

// The gap a diagnostic becomes under strict resolution.
Gap strict_gap(DiagnosticKind kind);

template <class T>
Resolution<T> not_covered(Gap gap, std::string reason, Explanation explanation, std::string rule) {
    explanation.rule = std::move(rule);
    return {unexpected(NotCovered{.gap = gap, .reason = std::move(reason), .diagnostics = {}}),
            std::make_shared<const Explanation>(std::move(explanation))};
}

// An answer from an outcome and the request's diagnostics, which come before the outcome's own (a
// native target's runtime_only). Under strict, the first diagnostic makes a covered answer not covered.
template <class T>
Resolution<T> finish(const Outcome<T>& outcome, Explanation explanation, bool cache_hit,
                     std::vector<Diagnostic> diagnostics, bool strict) {
    explanation.cache_hit = cache_hit;
    if (!outcome.plugin.empty()) explanation.plugin = outcome.plugin;
    if (!outcome.rule.empty()) explanation.rule = outcome.rule;
    Expected<Covered<T>, NotCovered> result = outcome.result;
    std::vector<Diagnostic>& own = result ? result->diagnostics : result.error().diagnostics;
    diagnostics.insert(diagnostics.end(), own.begin(), own.end());
    own = std::move(diagnostics);
    if (strict && result && !own.empty()) {
        const Diagnostic first = own.front();
        explanation.rule = "strict: " + std::string(name_of(first.kind));
        result = unexpected(NotCovered{.gap = strict_gap(first.kind), .reason = first.message, .diagnostics = own});
    }
    return {std::move(result), std::make_shared<const Explanation>(std::move(explanation))};
}

// A strategy request has no module_type.
inline const std::optional<std::string> kNoModuleType;

struct ResolverState {
    ResolverState(std::shared_ptr<const Registry> r, ResolverOptions o);

    // A channel's answer from its builder: `build` runs on every miss of the cache (an error is a broken
    // declaration, not a gap in coverage: the host hears of it at once).
    template <class T, class Build>
    Resolution<T> built(Explanation explanation, std::vector<Diagnostic> diagnostics, bool strict, Build build) const {
        const Outcome<T> outcome = build();
        if (outcome.is_error() && options.log) options.log(LogLevel::error, outcome.result.error().reason);
        return finish(outcome, std::move(explanation), false, std::move(diagnostics), strict);
    }

    // The public entry points: the cache first, then the channels on a miss.
    Resolution<ReplacementSpec> answer_replacement(const RequestView& request) const;
    Resolution<StrategySpec> answer_strategy(const RequestView& request) const;
    // The channels.
    Resolution<ReplacementSpec> replacement(const ResolveRequest& request) const;
    Resolution<StrategySpec> strategy(const ResolveRequest& request) const;

    std::shared_ptr<const Registry> registry;
    ResolverOptions options;
    const ComponentRenderer* renderer;
    mutable AnswerCache answers;  // the request asked again is answered before anything is looked up
};

}  // namespace famspec::detail
