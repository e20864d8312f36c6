// The answer of every query, in one of four states (resolved, native, not covered, broken), with the
// diagnostics famspec's own checks attach to it and how it was reached.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace famspec {

enum class Slot { replace_module, local_compute_fn, inner_wrapper };

// A Resolution's state by name, as outputs print it, in the order of ResolutionState (error: Broken).
enum class ResolutionStatus { resolved, not_covered, error, native };

// Why a target is not covered, for callers that act on the kind rather than read the sentence.
enum class Gap {
    no_target,            // the entry names no target path
    no_channel,           // neither a family factory path nor a generic component path
    unknown_family,       // no loaded plugin knows the family
    not_registered,       // the family (or the catalogue) registers no such factory, component, archetype or wrapper
    wrong_family,         // registered, but by another family
    wrong_slot,           // a strategy target in the other strategy slot, or a strategy slot for a replacement
    runtime_only,         // the family declares that it only runs at runtime: there is nothing to sink
    missing_module_type,  // a replacement without the source class it rewrites
    component_mismatch,   // the component cannot take what the factory passes, or a default is not a literal
    bad_option,           // a static option that is unknown, mistyped or supplied by the runtime
};

// Where famspec is stricter than the reference, its answer is given with the check as a diagnostic.
// Under strict, the first makes the target not covered, with its message and the gap beside its kind.
enum class DiagnosticKind {
    unregistered_wrapper,  // an adapter-convention CP inner wrapper the family did not register (not_registered)
    ignored_option,        // a static option the component, factory, archetype or wrapper lacks (bad_option)
    family_mismatch,       // an EP archetype asked for under another (or an unknown) family (wrong_family)
    runtime_only,          // the family builds the target at runtime: reported native (runtime_only)
    disallowed_value,      // a static option whose value is not one of its declared Literal[...] values (bad_option)
};

struct Diagnostic {
    DiagnosticKind kind = DiagnosticKind::ignored_option;
    std::string message;
    std::optional<std::string> suggestion;  // the nearest fitting name, or the declared ones
    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

struct Explanation;  // famspec/explanation.hpp: the decision trace

// The four states, each holding what only it has.
template <class T>
struct Resolved {
    std::shared_ptr<const T> spec;  // never null; shared and immutable
};
// The family builds the target at runtime and nothing is sunk, as on the reference's native path.
struct Native {
    std::string reason;  // also the message of the runtime_only diagnostic, the last one
};
struct NotCovered {
    Gap gap = Gap::not_registered;
    std::string reason;
};
struct Broken {  // a declaration that cannot become a spec: the plugin is at fault, not the plan
    std::string reason;
};

template <class T>
using ResolutionState = std::variant<Resolved<T>, NotCovered, Broken, Native>;

// The outcome and how it was reached, built as {state, diagnostics, explanation}.
template <class T>
struct Resolution {
    ResolutionState<T> state;
    // What famspec's checks found, in every state; under strict, the first of them is the reason.
    std::vector<Diagnostic> diagnostics;
    // Never null. Shared and immutable, so that an answer served from the cache is a copy of two
    // pointers: the explanation is made once, when the answer is first computed.
    std::shared_ptr<const Explanation> explanation;

    ResolutionStatus status() const { return static_cast<ResolutionStatus>(state.index()); }
    // The resolved state, or null in any other.
    const Resolved<T>* resolved() const { return std::get_if<Resolved<T>>(&state); }
    std::optional<Gap> gap() const {
        if (const auto* s = std::get_if<NotCovered>(&state)) return s->gap;
        return std::nullopt;
    }
    // Why the target is not resolved, as every output writes it; empty when it is.
    const std::string& reason() const {
        static const std::string kResolved;
        if (const auto* s = std::get_if<NotCovered>(&state)) return s->reason;
        if (const auto* s = std::get_if<Broken>(&state)) return s->reason;
        return std::holds_alternative<Native>(state) ? std::get<Native>(state).reason : kResolved;
    }
};

}  // namespace famspec
