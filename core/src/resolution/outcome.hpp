// What a channel's builder answers, before the request's diagnostics and strictness are applied:
// `ResolverState::built` turns it into the Resolution the cache keeps. Private to the resolver.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "famspec/resolution.hpp"

namespace famspec::detail {

template <class T>
struct Outcome {
    ResolutionState<T> state;
    std::string plugin;  // whose declaration decided it, when that is not the explanation's plugin
    std::string rule;
};

template <class T>
Outcome<T> covered(std::shared_ptr<const T> spec, std::string rule) {
    return {Resolved<T>{std::move(spec)}, {}, std::move(rule)};
}

// The family builds the target at runtime: nothing to sink (`finish` adds the runtime_only diagnostic).
template <class T>
Outcome<T> runtime_only(std::string reason, std::string rule) {
    return {Native{std::move(reason)}, {}, std::move(rule)};
}

template <class T>
Outcome<T> gap(Gap gap, std::string reason, std::string rule = {}) {
    return {NotCovered{.gap = gap, .reason = std::move(reason)}, {}, std::move(rule)};
}

// A declaration that cannot become a spec: the plugin is at fault, not the plan.
template <class T>
Outcome<T> broken(std::string message, std::string plugin, std::string rule) {
    return {Broken{std::move(message)}, std::move(plugin), std::move(rule)};
}

}  // namespace famspec::detail
