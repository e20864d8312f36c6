#include "sync_command.hpp"

#include <CLI/CLI.hpp>
#include <ostream>
#include <vector>

#include "python_command.hpp"

namespace famspec::cli {

CLI::App* add_sync_command(CLI::App& app, SyncRequest& request) {
    CLI::App* sync = add_python_subcommand(
        app, "sync", "Generate a family's plugin project from the runtime's Python source", request.source_root,
        "Exit codes: 0 written or up to date, 1 TODOs left or --check differs, 2 bad input.");
    sync->add_option("--family", request.family, "The family (any spelling)")->type_name("F")->required();
    sync->add_option("--out", request.out, "The plugin project to write (CMakeLists.txt, plugin.cpp, python/)")
        ->type_name("OUT")
        ->required();
    sync->add_flag("--check", request.check, "Write nothing; exit 1 with a unified diff when OUT is out of date");
    sync->add_flag("--allow-incomplete", request.allow_incomplete, "TODOs the source leaves do not fail the command");
    return sync;
}

int run_sync(const Context& context, const SyncRequest& request, std::ostream& err) {
    std::vector<std::string> args{"--source-root", request.source_root, "--family", request.family,
                                  "--out",         request.out};
    if (request.check) args.emplace_back("--check");
    if (request.allow_incomplete) args.emplace_back("--allow-incomplete");
    if (context.json) args.emplace_back("--json");
    if (context.quiet) args.emplace_back("--quiet");
    return run_python_command(context, "sync", std::move(args), err);
}

}  // namespace famspec::cli
