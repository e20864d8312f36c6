// How a subcommand is made. Each one lives in its own file, cli/commands/<name>.cpp, which defines
//     void setup_<name>(CLI::App& app, Context& context);
// declaring the subcommand, its options (into a struct of its own) and its action (on_run). The
// list of those files in cli/CMakeLists.txt (FAMSPEC_COMMANDS) is the list of commands: the build
// makes main call each setup, in that order, which is the order of `famspec --help`.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "context.hpp"

namespace famspec::cli {

// An empty value is never what anyone meant (a variable that was not set, say): refused by name.
extern const CLI::Validator kNonEmpty;

// Adds the subcommand. The app's options (--json, --quiet, --plugin-path...) may follow its name.
CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description);

// What the command does once the command line parsed: `action` returns famspec's exit status. Human
// output on stdout is escaped unless --json (a command whose output is already safe, or must stay
// byte for byte, says escape_stdout(false)); a UsageError it throws is a usage error (exit 2).
void on_run(CLI::App* command, Context& context, std::function<int()> action);

// The exit status the command's action returned (2 when none ran).
int command_status();

}  // namespace famspec::cli
