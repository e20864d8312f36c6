// famspec resolve: one target to its spec, or --batch: one JSON query per line.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "command.hpp"
#include "output.hpp"
#include "plan_commands.hpp"
#include "resolve_batch.hpp"

namespace famspec::cli {
namespace {

struct ResolveOptions {
    ResolveFlags request;
    bool batch = false;
};

}  // namespace

void setup_resolve(CLI::App& app, Context& context) {
    auto options = std::make_shared<ResolveOptions>();
    ResolveFlags& request = options->request;
    CLI::App* resolve = add_command(app, "resolve", "Resolve one target to its spec (JSON, or null)");
    resolve->add_option("--target", request.target, "Dotted _target_ path")->type_name("TARGET")->check(kNonEmpty);
    resolve->add_option("--model-type", request.model_type, "Family: model_type, architecture or any spelling")
        ->type_name("FAMILY")
        ->check(kNonEmpty);
    resolve->add_option("--module-type", request.module_type, "Dotted source class the replacement matches")
        ->type_name("CLASS")
        ->check(kNonEmpty);
    resolve->add_option("--slot", request.slot, "replace_module (default), local_compute_fn or inner_wrapper")
        ->check(CLI::IsMember({"replace_module", "local_compute_fn", "inner_wrapper"}));
    resolve->add_option("--option", request.options, "Static option k=v (repeatable), as written in a plan")
        ->type_name("K=V");
    resolve->add_option("--plan", request.plan, "Take the family from this training config or plan")
        ->type_name("PLAN")
        ->check(kNonEmpty);
    resolve->add_flag("--explain", request.explain, "Print the decision trace on stderr");
    resolve->add_flag("--strict", request.strict, "Every diagnostic makes the target not covered");
    resolve->add_flag("--batch", options->batch,
                      "Read one JSON query per line on stdin, write one JSON answer per line on stdout");
    on_run(resolve, context, [&context, options] {
        escape_stdout(false);  // the answer is JSON, safe as it is
        if (options->batch) return resolve_batch(context, STDIN_FILENO, options->request.strict, std::cout, std::cerr);
        if (options->request.target.empty()) throw UsageError("resolve needs --target TARGET (or --batch)");
        return resolve_target(context, options->request, std::cout, std::cerr);
    });
}

}  // namespace famspec::cli
