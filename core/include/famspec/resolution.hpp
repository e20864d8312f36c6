// The answer of every query: resolved, native (left to the runtime), not covered (with the reason),
// or an error; with the diagnostics famspec's own checks attach to it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

enum class Slot { replace_module, local_compute_fn, inner_wrapper };

// native: the family builds the target at runtime and nothing is sunk, as on the reference's native path.
enum class ResolutionStatus { resolved, not_covered, error, native };

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

// Where famspec is stricter than the reference, its answer is given with the check as a diagnostic.
// Under strict resolution the first diagnostic makes the target not covered, with its message and
// the gap of its kind: not_registered, bad_option, wrong_family, runtime_only or bad_option.
enum class DiagnosticKind {
    unregistered_wrapper,  // a CP inner wrapper under the adapter convention that the family did not register
    ignored_option,        // a static option the component, factory, archetype or wrapper does not declare
    family_mismatch,       // an EP archetype asked for under another (or an unknown) family
    runtime_only,          // the family builds the target at runtime: reported native
    disallowed_value,      // a static option whose value is not one of its declared Literal[...] values
};

struct Diagnostic {
    DiagnosticKind kind = DiagnosticKind::ignored_option;
    std::string message;
    std::string suggestion;  // the nearest fitting name, or the declared ones; may be empty
    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

struct Explanation;  // famspec/explanation.hpp: the decision trace

// A covered target: its spec, or none when the family builds it at runtime (native; a runtime_only
// diagnostic then says why), with what famspec's checks found.
template <class T>
struct Covered {
    std::shared_ptr<const T> spec;  // shared and immutable; null when native
    std::vector<Diagnostic> diagnostics;
};

// Why a target is not covered. Gap::none marks an error: a declaration that cannot become a spec.
struct NotCovered {
    Gap gap = Gap::none;
    std::string reason;
    std::vector<Diagnostic> diagnostics;  // under strict, the first of them is the reason

    bool is_error() const { return gap == Gap::none; }
};

// The outcome and how it was reached; built as {outcome, explanation}.
template <class T>
struct Resolution : Expected<Covered<T>, NotCovered> {
    // Never null. Shared and immutable, so that an answer served from the cache is a copy of two
    // pointers: the explanation is made once, when the answer is first computed.
    std::shared_ptr<const Explanation> explanation;

    bool resolved() const { return this->has_value() && this->value().spec != nullptr; }
    ResolutionStatus status() const {
        if (this->has_value()) return resolved() ? ResolutionStatus::resolved : ResolutionStatus::native;
        return this->error().is_error() ? ResolutionStatus::error : ResolutionStatus::not_covered;
    }
    // One reading whatever the outcome, as every output writes it. A native target's reason is its
    // runtime_only diagnostic, which the resolver puts last.
    const std::vector<Diagnostic>& diagnostics() const {
        return this->has_value() ? this->value().diagnostics : this->error().diagnostics;
    }
    Gap gap() const { return this->has_value() ? Gap::none : this->error().gap; }
    const std::string& reason() const {
        static const std::string none;
        if (!this->has_value()) return this->error().reason;
        return resolved() || diagnostics().empty() ? none : diagnostics().back().message;
    }
};

}  // namespace famspec
