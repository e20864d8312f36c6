#include "app.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "catalogue_commands.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/search_path.hpp"
#include "help_export.hpp"
#include "plugin_commands.hpp"
#include "resolve_batch.hpp"

namespace famspec::cli {
namespace {

std::string version_text() {
    return "famspec " + std::string(core_version()) + "\nplugin ABI " + std::to_string(kAbiMajor) + "." +
           std::to_string(kAbiMinor) + "\nbuild fingerprint " + std::string(core_fingerprint());
}

// An empty value is never what anyone meant (a variable that was not set, say): refused by name.
const CLI::Validator kNonEmpty([](const std::string& value) { return value.empty() ? "must not be empty" : ""; }, "",
                               "NONEMPTY");

// Options every command takes; --plugin-path is the app's and may follow the command name.
CLI::App* with_common_flags(CLI::App* sub, Invocation& invocation) {
    sub->add_flag("--json", invocation.context.json, "Sorted, stable JSON output; errors as JSON too");
    sub->add_flag("-q,--quiet", invocation.context.quiet, "No notes or warnings on stderr (errors still)");
    sub->fallthrough();
    return sub;
}

// Declares a command with the flags every command takes.
CLI::App* command(CLI::App& app, Invocation& invocation, const std::string& name, const std::string& description) {
    return with_common_flags(app.add_subcommand(name, description), invocation);
}

void add_plan(CLI::App* sub, Invocation& invocation) {
    sub->add_option("PLAN", invocation.plan, "Training config or plan YAML with plan_overrides; - reads stdin")
        ->required()
        ->check(kNonEmpty);
    sub->add_option("--model-type", invocation.plan_model_type, "Overrides the plan's model_type / architecture")
        ->type_name("FAMILY")
        ->check(kNonEmpty);
    sub->add_flag("--strict", invocation.strict, "Unread plan keys and every diagnostic are failures");
}

void add_plugin_commands(CLI::App& app, Invocation& invocation) {
    CLI::App* list =
        command(app, invocation, "list", "List candidate plugins from their manifests (no plugin code runs)");
    list->add_flag("-l,--long", invocation.long_list, "Full paths instead of the 100-column table");
    CLI::App* show = command(app, invocation, "show", "Show what a family declares");
    show->add_option("FAMILY", invocation.family, "model_type, architecture or any normalised spelling")
        ->required()
        ->check(kNonEmpty);
    CLI::App* info =
        command(app, invocation, "info", "A plugin file's manifest, ABI and fingerprint, without loading it");
    info->add_option("FILE", invocation.file, "Plugin file (famspec_NAME.so)")->required()->check(kNonEmpty);
    command(app, invocation, "components", "The component catalogue: every registered component and its signature");
    CLI::App* interface = command(app, invocation, "interface-component",
                                  "The component class a family renders into the generated file (or None)");
    interface->add_option("FAMILY", invocation.family, "model_type, architecture or any normalised spelling")
        ->required()
        ->check(kNonEmpty);
    CLI::App* verify =
        command(app, invocation, "verify", "Load each plugin in a child process and report how it fares");
    verify->add_option("--timeout", invocation.timeout, "Seconds each plugin may take to load: (0, 86400], default 10")
        ->type_name("SECONDS");
    verify->add_flag("-l,--long", invocation.long_list, "Full paths instead of the 100-column table");
}

void add_resolve(CLI::App& app, Invocation& invocation) {
    ResolveFlags& request = invocation.request;
    CLI::App* resolve = command(app, invocation, "resolve", "Resolve one target to its spec (JSON, or null)");
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
    resolve->add_flag("--batch", invocation.batch,
                      "Read one JSON query per line on stdin, write one JSON answer per line on stdout");
}

void add_plan_commands(CLI::App& app, Invocation& invocation) {
    CLI::App* check = command(app, invocation, "check", "List every plan target that is not covered, with the reason");
    add_plan(check, invocation);
    check->add_flag("--allow-runtime-only", invocation.allow_runtime_only,
                    "Under --strict, runtime-only targets are reported, not failures");
    add_plan(command(app, invocation, "external-state",
                     "The classes a plan's local_compute_fn bodies replace, which own their collectives"),
             invocation);
    CLI::App* summary = command(app, invocation, "summary", "Print the canonical declaration summary of a plan");
    add_plan(summary, invocation);
    summary->add_flag("--digest", invocation.digest_only, "Print only the sha256 digest of the summary");
    summary->add_flag("--with-snapshot", invocation.with_snapshot,
                      "Record the plugin-set snapshot digest in the summary (key snapshot_digest)");
    NewFamilyOptions& options = invocation.new_family;
    CLI::App* new_family = command(app, invocation, "new-family", "Write a ready-to-build out-of-tree family project");
    new_family->add_option("NAME", options.name, "Family model_type and plugin name, e.g. acme_moe")
        ->required()
        ->check(kNonEmpty);
    new_family->add_option("--architecture", options.architecture, "HF architecture, e.g. AcmeMoeForCausalLM")
        ->required()
        ->type_name("ARCH")
        ->check(kNonEmpty);
    new_family->add_option("--dir", options.directory, "Directory to create (default ./NAME)")
        ->type_name("DIR")
        ->check(kNonEmpty);
}

}  // namespace

std::unique_ptr<CLI::App> make_app(Invocation& invocation) {
    auto app = std::make_unique<CLI::App>(
        "famspec: resolve training-plan targets to source-level declarations, using family plugins", "famspec");
    app->require_subcommand(1);
    app->set_version_flag("--version", version_text(), "famspec version, plugin ABI and build fingerprint");
    app->add_option("--plugin-path", invocation.context.plugin_paths,
                    "Plugin directory (repeatable, absolute); when given, only these are searched")
        ->type_name("DIR")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app->add_flag("--allow-partial", invocation.context.allow_partial,
                  "Answer from the plugins that loaded even when others failed (exit 0 instead of 1)");
    app->add_flag("--allow-insecure-plugins", invocation.context.allow_insecure,
                  "Load plugins whose file or directory others can write, with a warning (also "
                  "FAMSPEC_ALLOW_INSECURE=1)");
    app->add_option("--require-digests", invocation.context.required_digests,
                    "Load only plugin files whose SHA-256 this file lists: a snapshot's JSON or 'sha256 name' "
                    "lines (also FAMSPEC_REQUIRE_DIGESTS)")
        ->type_name("FILE");
    app->footer(std::string("Plugins are searched in --plugin-path, else in ") + kPluginPathVariable +
                " (colon-separated), else in famspec/plugins next to libfamspec.so.\n"
                "Exit status: 0 ok; 1 a plugin failed, a family is unknown or a target is not covered; "
                "2 a usage error or bad input.");
    add_plugin_commands(*app, invocation);
    add_resolve(*app, invocation);
    add_plan_commands(*app, invocation);
    with_common_flags(add_audit_command(*app, invocation.audit), invocation);
    with_common_flags(add_sync_command(*app, invocation.sync), invocation);
    with_common_flags(add_snapshot_command(*app, invocation.snapshot), invocation);
    add_diff_command(*app, invocation.diff)->fallthrough();

    CLI::App* probe = app->add_subcommand("__probe", "");  // verify's child; hidden
    probe->group("");
    probe->add_option("FILE", invocation.file)->required()->check(kNonEmpty);
    // Used by the build to write the bash completion and the man page; hidden.
    for (const char* generator : {"__bash-completion", "__man"}) {
        CLI::App* sub = app->add_subcommand(generator, "");
        sub->group("");
        sub->add_option("OUTPUT", invocation.file)->required()->check(kNonEmpty);
    }
    return app;
}

}  // namespace famspec::cli

namespace famspec::cli {
namespace {

// A number of seconds in (0, 86400]; nullopt for anything else (not a number, inf, nan, 0, 1e400).
std::optional<double> parse_seconds(const std::string& text) {
    if (text.empty() || text.size() > 32) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() || !(value > 0.0 && value <= 86400.0)) return std::nullopt;
    return value;
}

int usage(const Invocation& invocation, const std::string& message) {
    return invocation.context.fail(kExitUsage, {"usage", message, {}, {}, {}}, std::cout, std::cerr);
}

}  // namespace

int dispatch(const CLI::App& app, Invocation& invocation) {
    const Context& context = invocation.context;
    auto& out = std::cout;
    auto& err = std::cerr;
    const std::string name = app.get_subcommands().front()->get_name();
    if (name == "list") return list_plugins(context, invocation.long_list, out, err);
    if (name == "show") return show_family(context, invocation.family, out, err);
    if (name == "info") return plugin_info(context, invocation.file, out, err);
    if (name == "components") return list_components(context, out, err);
    if (name == "interface-component") return interface_component(context, invocation.family, out, err);
    if (name == "external-state") return external_state(context, invocation.plan, invocation.plan_model_type, out, err);
    if (name == "verify") {
        const std::optional<double> timeout = parse_seconds(invocation.timeout);
        if (!timeout) {
            return usage(invocation,
                         "--timeout must be a number of seconds more than 0 and at most 86400 (one "
                         "day), got '" +
                             invocation.timeout + "'");
        }
        return verify_plugins(context, *timeout, invocation.long_list, out, err);
    }
    if (name == "resolve") {
        if (invocation.batch) return resolve_batch(context, std::cin, out, err);
        if (invocation.request.target.empty()) return usage(invocation, "resolve needs --target TARGET (or --batch)");
        return resolve_target(context, invocation.request, out, err);
    }
    const PlanRequest plan{.path = invocation.plan,
                           .model_type = invocation.plan_model_type,
                           .strict = invocation.strict,
                           .allow_runtime_only = invocation.allow_runtime_only,
                           .digest_only = invocation.digest_only,
                           .with_snapshot = invocation.with_snapshot};
    if (name == "check") return check_plan(context, plan, out, err);
    if (name == "summary") return summarize_plan(context, plan, out, err);
    if (name == "new-family") return new_family(invocation.new_family, out, err, context.json);
    if (name == "audit") return run_audit(context, invocation.audit, err);
    if (name == "sync") return run_sync(context, invocation.sync, err);
    if (name == "snapshot") return run_snapshot(context, invocation.snapshot, out, err);
    if (name == "diff") return run_diff(invocation.diff, out, err);
    if (name == "__probe") return probe_plugin(invocation.file, 3);
    if (name == "__bash-completion" || name == "__man") {
        std::ofstream file(invocation.file, std::ios::binary | std::ios::trunc);
        (name == "__man" ? write_man_page : write_bash_completion)(app, file);
        file.close();
        return file ? kExitOk : usage(invocation, "cannot write " + invocation.file);
    }
    return usage(invocation, "unknown command '" + name + "'");
}

}  // namespace famspec::cli
