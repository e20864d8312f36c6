// The tri-state answer of every query: resolved, not covered (with the reason), or an error.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace famspec {

enum class ResolutionStatus { resolved, not_covered, error };

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
    Explanation explanation;

    bool resolved() const { return status == ResolutionStatus::resolved; }
};

}  // namespace famspec
