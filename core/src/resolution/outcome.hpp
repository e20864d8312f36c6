// What a channel's builder answers, before the request's diagnostics and strictness are applied:
// `ResolverState::built` turns it into the Resolution the cache keeps. Private to the resolver.
#pragma once

#include <memory>
#include <string>

#include "famspec/expected.hpp"
#include "famspec/resolution.hpp"

namespace famspec::detail {

template <class T>
struct Outcome {
    Expected<Covered<T>, NotCovered> result;
    std::string plugin;  // whose declaration decided it, when that is not the explanation's plugin
    std::string rule;

    bool is_error() const { return !result && result.error().is_error(); }
};

template <class T>
Outcome<T> covered(std::shared_ptr<const T> spec, std::string rule) {
    return {Covered<T>{.spec = std::move(spec), .diagnostics = {}}, {}, std::move(rule)};
}

// The family builds the target at runtime: covered, with nothing to sink, and a diagnostic that says so.
template <class T>
Outcome<T> runtime_only(std::string reason, std::string rule) {
    return {Covered<T>{.spec = nullptr, .diagnostics = {{DiagnosticKind::runtime_only, std::move(reason), {}}}},
            {},
            std::move(rule)};
}

template <class T>
Outcome<T> gap(Gap gap, std::string reason, std::string rule = {}) {
    return {unexpected(NotCovered{.gap = gap, .reason = std::move(reason), .diagnostics = {}}), {}, std::move(rule)};
}

// A declaration that cannot become a spec: the plugin is at fault, not the plan.
template <class T>
Outcome<T> broken(std::string message, std::string plugin, std::string rule) {
    return {unexpected(NotCovered{.gap = Gap::none, .reason = std::move(message), .diagnostics = {}}),
            std::move(plugin), std::move(rule)};
}

}  // namespace famspec::detail
