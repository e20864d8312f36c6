#include "app.hpp"

#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/search_path.hpp"

namespace famspec::cli {

// The commands' setups, one per file in cli/commands (the list is cli/CMakeLists.txt's).
#define FAMSPEC_COMMAND(name) void setup_##name(CLI::App& app, Context& context);
#include "famspec_commands.inc"
#undef FAMSPEC_COMMAND

namespace {

std::string version_text() {
    return "famspec " + std::string(core_version()) + "\nplugin ABI " + std::to_string(kAbiMajor) + "." +
           std::to_string(kAbiMinor) + "\nbuild fingerprint " + std::string(core_fingerprint());
}

}  // namespace

std::unique_ptr<CLI::App> make_app(Context& context) {
    auto app = std::make_unique<CLI::App>(
        "famspec: resolve training-plan targets to source-level declarations, using family plugins", "famspec");
    app->require_subcommand(1);
    app->set_version_flag("--version", version_text(), "famspec version, plugin ABI and build fingerprint");
    // Options every command takes, declared once: they may come before or after the command name.
    app->add_option("--plugin-path", context.plugin_paths,
                    "Plugin directory (repeatable, absolute); when given, only these are searched")
        ->type_name("DIR")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app->add_flag("--json", context.json, "Sorted, stable JSON output; errors as JSON too");
    app->add_flag("-q,--quiet", context.quiet, "No notes or warnings on stderr (errors still)");
    app->add_flag("--allow-partial", context.allow_partial,
                  "Answer from the plugins that loaded even when others failed (exit 0 instead of 1)");
    app->add_flag("--allow-insecure-plugins", context.allow_insecure,
                  "Load plugins whose file or directory others can write, with a warning (also "
                  "FAMSPEC_ALLOW_INSECURE=1)");
    app->add_option("--require-digests", context.required_digests,
                    "Load only plugin files whose SHA-256 this file lists: a snapshot's JSON or 'sha256 name' "
                    "lines (also FAMSPEC_REQUIRE_DIGESTS)")
        ->type_name("FILE");
    app->footer(std::string("--plugin-path, --json, --quiet, --allow-partial, --allow-insecure-plugins and "
                            "--require-digests may also follow the command name (famspec --help).\n") +
                "Plugins are searched in --plugin-path, else in " + kPluginPathVariable +
                " (colon-separated), else in famspec/plugins next to libfamspec.so.\n"
                "Exit status: 0 ok; 1 a plugin failed, a family is unknown or a target is not covered; "
                "2 a usage error or bad input.");
#define FAMSPEC_COMMAND(name) setup_##name(*app, context);
#include "famspec_commands.inc"
#undef FAMSPEC_COMMAND
    return app;
}

}  // namespace famspec::cli
