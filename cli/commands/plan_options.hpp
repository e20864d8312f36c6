// The options of the commands that read a plan (check, external-state, summary).
#pragma once

#include "command.hpp"
#include "plan_commands.hpp"

namespace famspec::cli {

inline void add_plan_options(CLI::App* command, PlanRequest& plan) {
    command->add_option("PLAN", plan.path, "Training config or plan YAML with plan_overrides; - reads stdin")
        ->required()
        ->check(kNonEmpty);
    command->add_option("--model-type", plan.model_type, "Overrides the plan's model_type / architecture")
        ->type_name("FAMILY")
        ->check(kNonEmpty);
    command->add_flag("--strict", plan.strict, "Unread plan keys and every diagnostic are failures");
}

}  // namespace famspec::cli
