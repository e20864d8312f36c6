// Which family a plan's targets are resolved for, and where that came from.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/family_source.hpp"
#include "famspec/plan.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

struct PlanFamily {
    std::optional<std::string> name;  // empty exactly when source is per_target
    FamilySource source = FamilySource::per_target;
    // per_target although model._target_ lies under hyper_parallel.models.<segment>.: the segment
    // names no registered family (a generic builder such as HyperAutoModelForCausalLM).
    bool model_target_names_no_family = false;
};

class Registry;

// The family a plan's targets are resolved for, and where it came from.
FAMSPEC_API PlanFamily plan_family(const Plan& plan, const std::optional<std::string>& model_type);
// The same, with the loaded plugins: model._target_ gives the family only when its segment is a
// spelling or a directory alias of a registered family; otherwise each target's family is
// inferred from its own path (model_target_names_no_family is set).
FAMSPEC_API PlanFamily plan_family(const Plan& plan, const std::optional<std::string>& model_type,
                                   const Registry& registry);
// --model-type, a plan's model_type or architecture: a family the caller named, which must exist.
FAMSPEC_API bool names_family_explicitly(FamilySource source);
// plan_family(plan, model_type).name
FAMSPEC_API std::optional<std::string> effective_model_type(const Plan& plan,
                                                            const std::optional<std::string>& model_type);

}  // namespace famspec
