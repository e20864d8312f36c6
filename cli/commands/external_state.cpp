// famspec external-state PLAN: the classes a plan's local_compute_fn bodies replace.
#include <iostream>
#include <memory>

#include "catalogue_commands.hpp"
#include "plan_options.hpp"

namespace famspec::cli {

void setup_external_state(CLI::App& app, Context& context) {
    auto plan = std::make_shared<PlanRequest>();
    CLI::App* command = add_command(
        app, "external-state", "The classes a plan's local_compute_fn bodies replace, which own their collectives");
    add_plan_options(command, *plan);
    on_run(command, context,
           [&context, plan] { return external_state(context, plan->path, plan->model_type, std::cout, std::cerr); });
}

}  // namespace famspec::cli
