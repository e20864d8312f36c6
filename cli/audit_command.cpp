#include "audit_command.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

#include "python_command.hpp"

namespace famspec::cli {

CLI::App* add_audit_command(CLI::App& app, AuditRequest& request) {
    CLI::App* audit =
        add_python_subcommand(app, "audit", "Check every family declaration against the runtime's Python source",
                              request.source_root, "Exit codes: 0 nothing drifts, 1 drift, 2 bad root or arguments.");
    audit->add_option("--family", request.families, "Audit only this family (repeatable; any spelling)")
        ->type_name("F");
    audit->add_flag("--strict", request.strict, "Source the audit cannot read fails it too");
    audit->add_flag("--verbose", request.verbose, "Print every ok finding, not only their count");
    return audit;
}

int run_audit(const Context& context, const AuditRequest& request, std::ostream& err) {
    std::vector<std::string> args{"--source-root", request.source_root};
    for (const auto& family : request.families) args.insert(args.end(), {"--family", family});
    if (context.json) args.emplace_back("--json");
    if (request.strict) args.emplace_back("--strict");
    if (request.verbose) args.emplace_back("--verbose");
    return run_python_command(context, "audit", std::move(args), err);
}

}  // namespace famspec::cli
