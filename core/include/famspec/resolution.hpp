// The answer of every query: resolved, native (left to the runtime), not covered (with the reason),
// or an error; with the diagnostics famspec's own checks attach to it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

enum class ResolutionStatus {
    resolved,
    not_covered,
    error,
    native,  // the family builds it at runtime; nothing is sunk, as the reference's native path
};

// "resolved", "not_covered", "error" or "native", as every JSON output and the Python package spell it.
FAMSPEC_API std::string_view status_name(ResolutionStatus status);

// Why a target is not covered, for callers that act on the kind rather than read the sentence.
enum class Gap {
    none,                 // resolved, or an error
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

FAMSPEC_API std::string_view gap_name(Gap gap);

// Where famspec is stricter than the reference, the reference's answer is given and the check
// becomes a diagnostic attached to it. Under strict resolution every diagnostic makes the target
// not covered, with the diagnostic's message and strict_gap(kind).
enum class DiagnosticKind {
    unregistered_wrapper,  // a CP inner wrapper under the adapter convention that the family did not register
    ignored_option,        // a static option the component, factory, archetype or wrapper does not declare
    family_mismatch,       // an EP archetype asked for under another (or an unknown) family
    runtime_only,          // the family builds the target at runtime: reported native
};

struct Diagnostic {
    DiagnosticKind kind = DiagnosticKind::ignored_option;
    std::string message;
    std::string suggestion;  // the nearest fitting name, or the declared ones; may be empty

    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

FAMSPEC_API std::string_view diagnostic_kind_name(DiagnosticKind kind);
// The gap a diagnostic becomes under strict resolution.
FAMSPEC_API Gap strict_gap(DiagnosticKind kind);

struct Explanation;  // famspec/explanation.hpp: the decision trace

template <class T>
struct Resolution {
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::shared_ptr<const T> value;  // set exactly when resolved
    std::string reason;              // why not covered, or the error message
    Gap gap = Gap::none;             // set exactly when not covered
    // Never null. Shared and immutable, so that an answer served from the cache is a copy of two
    // pointers: the explanation is made once, when the answer is first computed.
    std::shared_ptr<const Explanation> explanation;
    std::vector<Diagnostic> diagnostics;  // what famspec's checks found; under strict, any makes it not covered

    bool resolved() const { return status == ResolutionStatus::resolved; }
};

}  // namespace famspec
