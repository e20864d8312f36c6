// Which answers depend on the family: where a family no plugin registers can change an answer.
#pragma once

#include <string_view>

#include "famspec/plan.hpp"
#include "famspec/resolver.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Whether the answer for a target depends on its family. Every target's does but a replace_module
// target naming a generic component directly (hyper_parallel.components.…): the reference resolves
// that one without consulting the family, so it is the same under any model_type, known or not.
FAMSPEC_API bool target_reads_family(Slot slot, std::string_view target);
// Whether any target of the plan reads its family.
FAMSPEC_API bool plan_reads_family(const Plan& plan);

}  // namespace famspec
