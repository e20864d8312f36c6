// famspec summary PLAN: the canonical declaration summary of a plan, or its digest.
#include <iostream>
#include <memory>

#include "output.hpp"
#include "plan_options.hpp"

namespace famspec::cli {

void setup_summary(CLI::App& app, Context& context) {
    auto plan = std::make_shared<PlanRequest>();
    CLI::App* summary = add_command(app, "summary", "Print the canonical declaration summary of a plan");
    add_plan_options(summary, *plan);
    summary->add_flag("--digest", plan->digest_only, "Print only the sha256 digest of the summary");
    summary->add_flag("--with-snapshot", plan->with_snapshot,
                      "Record the plugin-set snapshot digest in the summary (key snapshot_digest)");
    on_run(summary, context, [&context, plan] {
        escape_stdout(false);  // JSON, and its bytes are digested
        return summarize_plan(context, *plan, std::cout, std::cerr);
    });
}

}  // namespace famspec::cli
