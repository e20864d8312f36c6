// famspec check PLAN: every plan target that is not covered, with the reason.
#include <iostream>
#include <memory>

#include "plan_options.hpp"

namespace famspec::cli {

void setup_check(CLI::App& app, Context& context) {
    auto plan = std::make_shared<PlanRequest>();
    CLI::App* check = add_command(app, "check", "List every plan target that is not covered, with the reason");
    add_plan_options(check, *plan);
    check->add_flag("--allow-runtime-only", plan->allow_runtime_only,
                    "Under --strict, runtime-only targets are reported, not failures");
    on_run(check, context, [&context, plan] { return check_plan(context, *plan, std::cout, std::cerr); });
}

}  // namespace famspec::cli
