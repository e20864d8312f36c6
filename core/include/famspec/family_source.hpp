// Where the family of a plan's targets comes from: type-only, so every stage may name it
// (famspec/names.hpp prints it; famspec/plan_family.hpp decides it).
#pragma once

namespace famspec {

// Where the family of a plan's targets comes from, in the order it is looked for.
enum class FamilySource {
    caller,        // the model_type the caller gives (--model-type)
    model_type,    // the plan's top-level model_type
    architecture,  // the plan's top-level architecture
    model_target,  // model._target_ under hyper_parallel.models.<family>. (a registered family, once loaded)
    per_target,    // none of these: each target's family is inferred from its own path
};

}  // namespace famspec
