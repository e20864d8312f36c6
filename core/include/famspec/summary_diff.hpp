// What differs between two canonical declaration summaries: which targets' specs changed, field by
// field. This answers "why must this artifact be regenerated?".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// One line per changed target (and field), none when they are equal; or "old summary: ..." or
// "new summary: ..." when one is not a summary.
using SummaryComparison = Expected<std::vector<std::string>, std::string>;

// Lines read "target T: added (strategy_specs)", "target T: no longer covered (replacement_specs)" or
// "target T: FIELD: OLD -> NEW" (a value longer than 80 characters is given as its size).
FAMSPEC_API SummaryComparison compare_summaries(std::string_view old_summary, std::string_view new_summary);

}  // namespace famspec
