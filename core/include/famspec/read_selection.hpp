// What a plan or one request touches, as a selective load reads it (LoadOptions::read): the family
// spellings it may look up and the targets it names. A host answering one plan loads with
// `options.read = read_selection(plan, model_type)` and reads only the plugins the plan touches.
//
// An answer that is resolved (or native) reads only declarations of the plugins touched. One that is
// not covered may draw on every plugin (the nearest registered names, which family owns a target),
// as may the message for a family no plugin registers: the famspec command then loads again with
// every plugin, and a host that reports such reasons does the same.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/plan.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Every spelling the plan's family may come from (the caller's model_type, the plan's model_type and
// architecture, model._target_'s directory) and each target's directory, and every target of the plan.
FAMSPEC_API ReadSelection read_selection(const Plan& plan, const std::optional<std::string>& model_type);

// One target asked under `model_type` (or the family its path names), added to `selection`.
FAMSPEC_API void add_to_selection(ReadSelection& selection, std::string_view target,
                                  const std::optional<std::string>& model_type);

}  // namespace famspec
