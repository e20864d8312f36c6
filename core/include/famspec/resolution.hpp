// The tri-state answer of every query: resolved, not covered (with the reason), or an error.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

enum class ResolutionStatus { resolved, not_covered, error };

// "resolved", "not_covered" or "error", as every JSON output and the Python package spell it.
constexpr std::string_view status_name(ResolutionStatus status) {
    switch (status) {
        case ResolutionStatus::resolved:
            return "resolved";
        case ResolutionStatus::not_covered:
            return "not_covered";
        case ResolutionStatus::error:
            return "error";
    }
    return "error";
}

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

// The decision trace `famspec resolve --explain` prints.
struct Explanation {
    std::vector<std::string> spellings_tried;
    std::string family;   // the family chosen, empty when none
    std::string plugin;   // the plugin that answered
    std::string channel;  // "factory", "direct-component", "archetype", "cp-wrapper"
    bool cache_hit = false;
    std::string rule;  // the rule that decided
};

template <class T>
struct Resolution {
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::shared_ptr<const T> value;  // set exactly when resolved
    std::string reason;              // why not covered, or the error message
    Gap gap = Gap::none;             // set exactly when not covered
    // Never null. Shared and immutable, so that an answer served from the cache is a copy of two
    // pointers: the explanation is made once, when the answer is first computed.
    std::shared_ptr<const Explanation> explanation;

    bool resolved() const { return status == ResolutionStatus::resolved; }
};

}  // namespace famspec
