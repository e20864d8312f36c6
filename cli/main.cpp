// famspec: list the plugins, show a family, verify loading in isolation, resolve targets and check
// whole plans. Exit codes: 0 ok, 1 a failure or a gap, 2 a usage error or bad input.
#include <CLI/CLI.hpp>
#include <iostream>

#include "audit_command.hpp"
#include "context.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "new_family.hpp"
#include "plan_commands.hpp"
#include "plugin_commands.hpp"

namespace {

using famspec::cli::Context;

int run(int argc, char** argv) {
    Context context;
    CLI::App app{"famspec: resolve training-plan targets to source-level declarations, using family plugins"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "famspec " + std::string(famspec::core_version()) + " (plugin ABI " +
                                          std::to_string(famspec::kAbiMajor) + "." +
                                          std::to_string(famspec::kAbiMinor) + ")");
    app.add_option("--plugin-path", context.plugin_paths,
                   "Plugin directory (repeatable, absolute); when given, only these are searched")
        ->type_name("DIR")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.footer(std::string("Plugins are searched in --plugin-path, else in ") + famspec::kPluginPathVariable +
               " (colon-separated), else in <directory of famspec>/../lib/famspec/plugins.");

    auto add_json = [&context](CLI::App* command) {
        command->add_flag("--json", context.json, "Sorted, stable JSON output");
        command->fallthrough();  // --plugin-path may follow the command name
    };

    CLI::App* list = app.add_subcommand("list", "List candidate plugins from their manifests (no plugin code runs)");
    add_json(list);

    std::string family;
    CLI::App* show = app.add_subcommand("show", "Show what a family declares");
    show->add_option("FAMILY", family, "model_type, architecture or any normalised spelling")->required();
    add_json(show);

    double timeout = 10.0;
    CLI::App* verify = app.add_subcommand("verify", "Load each plugin in a child process and report how it fares");
    verify->add_option("--timeout", timeout, "Seconds each plugin may take to load")->check(CLI::PositiveNumber);
    add_json(verify);

    famspec::cli::ResolveRequest request;
    CLI::App* resolve = app.add_subcommand("resolve", "Resolve one target to its spec (JSON, or null)");
    resolve->add_option("--target", request.target, "Dotted _target_ path")->required();
    resolve->add_option("--model-type", request.model_type, "Family: model_type, architecture or any spelling");
    resolve->add_option("--module-type", request.module_type, "Dotted source class the replacement matches");
    resolve->add_option("--slot", request.slot, "replace_module (default), local_compute_fn or inner_wrapper")
        ->check(CLI::IsMember({"replace_module", "local_compute_fn", "inner_wrapper"}));
    resolve->add_option("--option", request.options, "Static option k=v (repeatable), as written in a plan");
    resolve->add_option("--plan", request.plan, "Take the family from this plan or training config")->type_name("PLAN");
    resolve->add_flag("--explain", request.explain, "Print the decision trace on stderr");
    resolve->add_flag("--strict", request.strict, "Every diagnostic makes the target not covered");
    add_json(resolve);

    famspec::cli::PlanRequest plan;
    auto add_plan = [&plan](CLI::App* command) {
        command->add_option("PLAN", plan.path, "Training config or plan YAML with plan_overrides")->required();
        command->add_option("--model-type", plan.model_type, "Overrides the plan's model_type / architecture");
        command->add_flag("--strict", plan.strict, "Unread entry keys and every diagnostic are failures");
    };
    CLI::App* check = app.add_subcommand("check", "List every plan target that is not covered, with the reason");
    add_plan(check);
    check->add_flag("--allow-runtime-only", plan.allow_runtime_only,
                    "Under --strict, runtime-only targets are reported, not failures");
    add_json(check);

    CLI::App* summary = app.add_subcommand("summary", "Print the canonical declaration summary of a plan");
    add_plan(summary);
    summary->add_flag("--digest", plan.digest_only, "Print only the sha256 digest of the summary");
    summary->fallthrough();

    famspec::cli::NewFamilyOptions new_family_options;
    CLI::App* new_family = app.add_subcommand("new-family", "Write a ready-to-build out-of-tree family project");
    new_family->add_option("NAME", new_family_options.name, "Family model_type and plugin name, e.g. acme_moe")
        ->required();
    new_family
        ->add_option("--architecture", new_family_options.architecture, "HF architecture, e.g. AcmeMoeForCausalLM")
        ->required();
    new_family->add_option("--dir", new_family_options.directory, "Output directory (default ./NAME)")
        ->type_name("DIR");

    famspec::cli::AuditRequest audit_request;
    CLI::App* audit = famspec::cli::add_audit_command(app, audit_request);
    add_json(audit);

    std::string probe_file;
    CLI::App* probe = app.add_subcommand("__probe", "");  // verify's child; hidden
    probe->group("");
    probe->add_option("FILE", probe_file)->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return famspec::cli::kExitUsage;
    }

    if (*list) return famspec::cli::list_plugins(context, std::cout, std::cerr);
    if (*show) return famspec::cli::show_family(context, family, std::cout, std::cerr);
    if (*verify) return famspec::cli::verify_plugins(context, timeout, std::cout, std::cerr);
    if (*resolve) return famspec::cli::resolve_target(context, request, std::cout, std::cerr);
    if (*check) return famspec::cli::check_plan(context, plan, std::cout, std::cerr);
    if (*summary) return famspec::cli::summarize_plan(context, plan, std::cout, std::cerr);
    if (*new_family) return famspec::cli::new_family(new_family_options, std::cout, std::cerr);
    if (*audit) return famspec::cli::run_audit(context, audit_request, std::cerr);
    if (*probe) return famspec::cli::probe_plugin(probe_file, 3);
    return famspec::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << "famspec: " << error.what() << "\n";
        return famspec::cli::kExitUsage;
    }
}
