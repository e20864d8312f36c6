// What the resolver's channels share: the registry snapshot, the one cache and how one answer is put
// together (diagnostics, strictness). Private to the resolver.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
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
    return {NotCovered{.gap = gap, .reason = std::move(reason)},
            {},
            std::make_shared<const Explanation>(std::move(explanation))};
}

// An answer from an outcome and the request's diagnostics, which come before the outcome's own (a
// native target's runtime_only). Under strict, the first diagnostic makes a covered answer (resolved
// or native) not covered.
template <class T>
Resolution<T> finish(const Outcome<T>& outcome, Explanation explanation, bool cache_hit,
                     std::vector<Diagnostic> diagnostics, bool strict) {
    explanation.cache_hit = cache_hit;
    if (!outcome.plugin.empty()) explanation.plugin = outcome.plugin;
    if (!outcome.rule.empty()) explanation.rule = outcome.rule;
    ResolutionState<T> state = outcome.state;
    if (const Native* native = std::get_if<Native>(&state)) {
        diagnostics.push_back({DiagnosticKind::runtime_only, native->reason, std::nullopt});
    }
    const bool covered = std::holds_alternative<Resolved<T>>(state) || std::holds_alternative<Native>(state);
    if (strict && covered && !diagnostics.empty()) {
        const Diagnostic& first = diagnostics.front();
        explanation.rule = "strict: " + std::string(name_of(first.kind));
        state = NotCovered{.gap = strict_gap(first.kind), .reason = first.message};
    }
    return {std::move(state), std::move(diagnostics), std::make_shared<const Explanation>(std::move(explanation))};
}

struct ResolverState {
    ResolverState(std::shared_ptr<const Registry> r, ResolverOptions o);

    // A channel's answer from its builder: `build` runs on every miss of the cache (an error is a broken
    // declaration, not a gap in coverage: the host hears of it at once).
    template <class T, class Build>
    Resolution<T> built(Explanation explanation, std::vector<Diagnostic> diagnostics, bool strict, Build build) const {
        const Outcome<T> outcome = build();
        const Broken* broken = std::get_if<Broken>(&outcome.state);
        if (broken != nullptr && options.log) options.log(LogLevel::error, broken->reason);
        return finish(outcome, std::move(explanation), false, std::move(diagnostics), strict);
    }

    // The channels, asked on a miss of the cache.
    Resolution<ReplacementSpec> replacement(const ResolveRequest& request) const;
    Resolution<StrategySpec> strategy(const ResolveRequest& request) const;

    std::shared_ptr<const Registry> registry;
    ResolverOptions options;
    const ComponentRenderer* renderer;
    mutable AnswerCache answers;  // the request asked again is answered before anything is looked up
};

}  // namespace famspec::detail
