// Commands that are Python (they read the runtime's source with ast): `famspec audit` and
// `famspec sync` run `python3 -m famspec <command> ...` with the famspec package found next to this
// executable, and pass its exit code through.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "context.hpp"

namespace CLI {
class App;
}

namespace famspec::cli {

// The interpreter these commands run under, unless FAMSPEC_PYTHON names another one.
inline constexpr const char* kAuditPython = "/usr/bin/python3";
inline constexpr const char* kAuditPythonVariable = "FAMSPEC_PYTHON";

// The subcommand `name` with its required --source-root and a footer naming the interpreter it runs
// under, then `exit_codes`.
CLI::App* add_python_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                                std::string& source_root, const std::string& exit_codes);

// `python3 -m famspec <command> <arguments...> --plugin-path D...` (the directories this command would
// search), with the package next to the executable on PYTHONPATH. Returns its exit code when it is
// 0, 1 or 2; 2 when the interpreter is missing or the package cannot be imported; 1 otherwise.
int run_python_command(const Context& context, const std::string& command, std::vector<std::string> arguments,
                       std::ostream& err);

}  // namespace famspec::cli
