// What differs between two canonical declaration summaries: which targets' specs changed, field by
// field. This answers "why must this artifact be regenerated?".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

struct SummaryComparison {
    std::optional<std::string> error;      // "old summary: ..." or "new summary: ..." when one is not a summary
    std::vector<std::string> differences;  // one line per changed target (and field); empty when equal
};

// Lines read "target T: added (strategy_specs)", "target T: no longer covered (replacement_specs)" or
// "target T: FIELD: OLD -> NEW" (a value longer than 80 characters is given as its size).
FAMSPEC_API SummaryComparison compare_summaries(std::string_view old_summary, std::string_view new_summary);

}  // namespace famspec
