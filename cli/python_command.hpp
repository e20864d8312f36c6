// Commands that are Python: `famspec audit` and `famspec sync` (they read the runtime's source with
// ast) and `famspec new-family` (sync's renderer) run `python3 -m famspec <command> ...` with the
// famspec package found next to this executable, pass it their arguments, and pass its exit code back.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "context.hpp"

namespace famspec::cli {

// The interpreter these commands run under, unless FAMSPEC_PYTHON names another one.
inline constexpr const char* kAuditPython = "/usr/bin/python3";
inline constexpr const char* kAuditPythonVariable = "FAMSPEC_PYTHON";

// Which of the app's options (given before or after the command name) the Python command takes too.
struct PassedOn {
    bool json = false;        // --json
    bool quiet = false;       // --quiet
    bool plugin_path = true;  // --plugin-path, for each directory this command would search
};

// The subcommand `name`, whose options are the Python command's own: every argument after the name
// goes to it as written (--help too, so its help is the Python parser's), with the PassedOn app
// options: --plugin-path D... (when passed on) for the directories this command would search, unless
// the arguments name their own. The footer names the interpreter, then `exit_codes`.
CLI::App* add_python_command(CLI::App& app, Context& context, const std::string& name, const std::string& description,
                             const std::string& exit_codes, PassedOn passed_on);

// `python3 -m famspec <command> <arguments...>` with the package next to the executable on
// PYTHONPATH. Returns its exit code when it is 0, 1 or 2; 2 when the interpreter is missing or the
// package cannot be imported; 1 otherwise. Signals sent to famspec meanwhile go on to python3, and
// famspec then ends as interrupted.
int run_python_command(const Context& context, const std::string& command, std::vector<std::string> arguments,
                       std::ostream& err, bool plugin_path = true);

}  // namespace famspec::cli
