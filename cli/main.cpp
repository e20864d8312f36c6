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
    app.add_flag("--allow-partial", context.allow_partial,
                 "Answer from the plugins that loaded even when others failed (exit 0 instead of 1)");
    app.add_flag("--allow-insecure-plugins", context.allow_insecure,
                 "Load plugins whose file or directory others can write, with a warning (also "
                 "FAMSPEC_ALLOW_INSECURE=1)");
    app.add_option("--require-digests", context.required_digests,
                   "Load only plugin files whose SHA-256 this file lists: a snapshot's JSON or 'sha256 name' lines "
                   "(also FAMSPEC_REQUIRE_DIGESTS)")
        ->type_name("FILE");
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
    resolve->add_flag("--explain", request.explain, "Print the decision trace on stderr");
    add_json(resolve);

    std::string plan;
    std::optional<std::string> plan_model_type;
    CLI::App* check = app.add_subcommand("check", "List every plan target that is not covered, with the reason");
    check->add_option("PLAN", plan, "Plan YAML with plan_overrides")->required();
    check->add_option("--model-type", plan_model_type, "Overrides the plan's model_type / architecture");
    bool allow_runtime_only = false;
    check->add_flag("--allow-runtime-only", allow_runtime_only,
                    "Targets their family declares runtime-only are reported, not failures");
    add_json(check);

    bool digest_only = false;
    CLI::App* summary = app.add_subcommand("summary", "Print the canonical declaration summary of a plan");
    summary->add_option("PLAN", plan, "Plan YAML with plan_overrides")->required();
    summary->add_option("--model-type", plan_model_type, "Overrides the plan's model_type / architecture");
    summary->add_flag("--digest", digest_only, "Print only the sha256 digest of the summary");
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
    if (*check)
        return famspec::cli::check_plan(context, plan, plan_model_type, allow_runtime_only, std::cout, std::cerr);
    if (*summary) {
        return famspec::cli::summarize_plan(context, plan, plan_model_type, digest_only, std::cout, std::cerr);
    }
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
