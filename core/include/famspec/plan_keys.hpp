// The keys of a plan famspec reads, and its word on one it does not: one rule for the plan reader,
// the commands and the Python package (parse_plan, and the drop-in's override records, which are no
// YAML). A near miss of a slot key (replace_modul) refuses the plan: the target written under it
// would be left out of every answer while the plan looks covered.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "famspec/plan.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

struct UnreadKey {
    std::string message;        // "plan_overrides entry key 'x' is not read by famspec (did you mean `y`?)"
    std::string suggestion;     // the nearest known key, or empty
    bool drops_target = false;  // the suggestion is a slot: the target under the key is left out

    // The warning's text: the message, and for a near miss of a slot what it costs.
    FAMSPEC_API std::string warning() const;
};

// nullopt for a key famspec (or the runtime, for its placement keys) reads in a plan_overrides entry.
FAMSPEC_API std::optional<UnreadKey> unread_entry_key(std::string_view key);
// nullopt unless the top-level key is a near miss of one famspec reads: any other section is the runtime's.
FAMSPEC_API std::optional<UnreadKey> unread_top_level_key(std::string_view key);

// Whether a plan's warning refuses it (a near miss of a slot key): check, summary and resolve exit
// 1, and parse_plan raises PlanError.
FAMSPEC_API bool refuses_plan(const PlanWarning& warning);
// "N misspelt slot key(s): the plan is refused rather than answered without their targets"
FAMSPEC_API std::string plan_refusal_reason(std::size_t refusing_warnings);

}  // namespace famspec
