// Which family a plan's targets are resolved for, and where that came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/plan.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Where the family of a plan's targets comes from, in the order it is looked for.
enum class FamilySource {
    caller,        // the model_type the caller gives (--model-type)
    model_type,    // the plan's top-level model_type
    architecture,  // the plan's top-level architecture
    model_target,  // model._target_ under hyper_parallel.models.<family>.
    per_target,    // none of these: each target's family is inferred from its own path
};

struct PlanFamily {
    std::optional<std::string> name;  // empty exactly when source is per_target
    FamilySource source = FamilySource::per_target;
};

// The family a plan's targets are resolved for, and where it came from.
FAMSPEC_API PlanFamily plan_family(const Plan& plan, const std::optional<std::string>& model_type);
// plan_family(plan, model_type).name
FAMSPEC_API std::optional<std::string> effective_model_type(const Plan& plan,
                                                            const std::optional<std::string>& model_type);

}  // namespace famspec
