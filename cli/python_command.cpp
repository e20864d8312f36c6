#include "python_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>

#include "child_process.hpp"
#include "command.hpp"
#include "signal_relay.hpp"
#include "supervisor.hpp"

extern char** environ;

namespace famspec::cli {
namespace fs = std::filesystem;
namespace {

#ifndef FAMSPEC_PYTHON_INSTALL_DIR
#define FAMSPEC_PYTHON_INSTALL_DIR "lib/python3/dist-packages"
#endif
#ifndef FAMSPEC_WHEEL_PREFIX
#define FAMSPEC_WHEEL_PREFIX "data"
#endif

// The famspec Python package next to this executable: the build tree (<build>/python), the
// installation this famspec belongs to (<prefix>/<FAMSPEC_PYTHON_INSTALL_DIR>, whatever the
// prefix), or the wheel that holds it (<site-packages>/famspec/data/bin/famspec: the package is the
// prefix's parent). Empty when none holds it; python3's own path may still find it.
std::string package_directory() {
    const fs::path bin = fs::path(executable_path()).parent_path();
    std::error_code ec;
    const fs::path prefix = fs::weakly_canonical(bin / "..", ec);
    if (!ec && prefix.filename() == FAMSPEC_WHEEL_PREFIX && prefix.parent_path().filename() == "famspec" &&
        fs::is_regular_file(prefix.parent_path() / "__init__.py", ec)) {
        return prefix.parent_path().parent_path().string();
    }
    for (const fs::path& candidate : {bin / ".." / "python", bin / ".." / FAMSPEC_PYTHON_INSTALL_DIR}) {
        if (fs::is_directory(candidate / "famspec", ec)) return fs::weakly_canonical(candidate, ec).string();
    }
    return {};
}

std::vector<std::string> environment_with(const std::string& package) {
    std::vector<std::string> out;
    std::string python_path = package;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view item(*entry);
        if (item.starts_with("PYTHONPATH=")) {
            const std::string_view old = item.substr(std::strlen("PYTHONPATH="));
            if (!old.empty()) python_path += (python_path.empty() ? "" : ":") + std::string(old);
            continue;
        }
        out.emplace_back(item);
    }
    if (!python_path.empty()) out.push_back("PYTHONPATH=" + python_path);
    return out;
}

// `python3 -I -m famspec <command> ...` (the command is sys.argv[1]; its module is famspec.<command>,
// with '_' for '-'). Isolated (-I): neither the
// working directory nor the user's site directory is on the path, so a `./argparse.py` or a
// `./famspec/audit.py` beside the source tree is never imported; the famspec package directory
// (PYTHONPATH's absolute entries, which environment_with() puts it first in) is put back in front.
// It first writes the handshake to descriptor 3, so an interpreter that is not Python (one that
// exits 0 without running this) is told apart. Then it asks to be killed when famspec ends
// (PR_SET_PDEATHSIG, SIGKILL): a famspec killed outright must not leave a worker writing OUT. And a
// package that cannot be imported exits 2 with a message instead of 1, which would read as a failed
// check.
constexpr const char* kHandshake = "famspec-python 1\n";
constexpr int kHandshakeDescriptor = 3;
constexpr const char* kBootstrap =
    "import os, sys\n"
    "os.write(3, b'famspec-python 1\\n')\n"
    "os.close(3)\n"
    "try:\n"
    "    import ctypes\n"
    "    if ctypes.CDLL(None).prctl(1, 9) == 0 and os.getppid() != int(os.environ['FAMSPEC_SUPERVISOR_PID']):\n"
    "        os._exit(2)\n"
    "except (OSError, AttributeError, KeyError, ValueError, ImportError):\n"
    "    pass\n"
    "sys.path[:0] = [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if os.path.isabs(p)]\n"
    "import importlib, runpy\n"
    "try:\n"
    "    importlib.import_module('famspec.' + sys.argv[1].replace('-', '_'))\n"
    "except ImportError as error:\n"
    "    sys.stderr.write(f'famspec {sys.argv[1]}: the famspec Python package cannot be imported ({error}); '\n"
    "                     f'searched {sys.path}\\n')\n"
    "    sys.exit(2)\n"
    "sys.argv[0] = 'famspec'\n"
    "runpy.run_module('famspec', run_name='__main__', alter_sys=True)\n";

}  // namespace

CLI::App* add_python_command(CLI::App& app, Context& context, const std::string& name, const std::string& description,
                             const std::string& exit_codes, PassedOn passed_on) {
    CLI::App* command = app.add_subcommand(name, description);
    command->prefix_command();  // everything after the name is the Python command's
    command->set_help_flag();
    command->footer("Its options are the Python command's: famspec " + name +
                    " --help lists them. Runs `python3 -m famspec " + name + "` under " + kAuditPython + " (or $" +
                    kAuditPythonVariable + "). " + exit_codes);
    on_run(command, context, [command, &context, name, passed_on] {
        std::vector<std::string> arguments = command->remaining();
        if (passed_on.json && context.json) arguments.emplace_back("--json");
        if (passed_on.quiet && context.quiet) arguments.emplace_back("--quiet");
        return run_python_command(context, name, std::move(arguments), std::cerr, passed_on.plugin_path);
    });
    return command;
}

int run_python_command(const Context& context, const std::string& command, std::vector<std::string> arguments,
                       std::ostream& err, bool plugin_path) {
    const char* chosen = std::getenv(kAuditPythonVariable);
    const std::string python = chosen != nullptr && *chosen != '\0' ? chosen : kAuditPython;
    if (access(python.c_str(), X_OK) != 0) {
        err << "famspec " << command << ": the command is Python and needs " << python << " (" << std::strerror(errno)
            << "); install Debian's python3 (apt-get install python3), or set " << kAuditPythonVariable
            << " to an interpreter\n";
        return kExitUsage;
    }
    std::vector<std::string> args{python, "-I", "-c", kBootstrap, command};
    args.insert(args.end(), arguments.begin(), arguments.end());
    // The same directories this command searches, so both sides see the same plugins; directories
    // given after the command name are the Python command's, and only those are searched.
    const auto names_plugins = [](const std::string& a) {
        return a == "--plugin-path" || a.starts_with("--plugin-path=");
    };
    if (plugin_path && std::none_of(arguments.begin(), arguments.end(), names_plugins)) {
        for (const auto& directory : context.search_path().directories) {
            args.insert(args.end(), {"--plugin-path", directory.string()});
        }
    }
    const bool json = context.json || std::find(arguments.begin(), arguments.end(), "--json") != arguments.end();
    ChildOptions child;
    child.argv = std::move(args);
    child.environment = environment_with(package_directory());
    child.environment->push_back("FAMSPEC_SUPERVISOR_PID=" + std::to_string(getpid()));
    child.descriptors = {{1, 1}, {2, 2}};  // its output is the command's
    child.relay_signals = true;
    child.kill_if_stopped = true;
    std::string handshake;
    child.outputs = {{kHandshakeDescriptor, [&handshake](std::string_view chunk) { handshake += chunk; }}};
    std::cout.flush();
    const ChildResult result = run_child(child);
    if (result.relayed_signal != 0) {
        end_with(interrupted(result.relayed_signal, "while " + python + " ran famspec " + command), json);
    }
    if (result.stopped_by != 0)
        end_with(stopped_alone(python + " running famspec " + command, result.stopped_by), json);
    if (!result.spawn_error.empty()) {
        err << "famspec " << command << ": " << result.spawn_error << "\n";
        return kExitUsage;
    }
    if (handshake != kHandshake) {
        err << "famspec " << command << ": " << python << " did not run famspec's Python (no handshake; exit "
            << result.exit_code << "): is it a Python 3 interpreter? Set " << kAuditPythonVariable
            << " to one, or unset it to use " << kAuditPython << "\n";
        return kExitUsage;
    }
    if (result.signal != 0) {
        err << "famspec " << command << ": " << python << " was killed by " << signal_name(result.signal) << "\n";
        return kExitFailed;
    }
    const int code = result.exit_code;
    if (code != kExitOk && code != kExitFailed && code != kExitUsage) {
        err << "famspec " << command << ": " << python << " -m famspec " << command << " exited with " << code << "\n";
        return kExitFailed;
    }
    return code;
}

}  // namespace famspec::cli
