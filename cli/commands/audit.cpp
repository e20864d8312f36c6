// famspec audit: proves the loaded plugins' declarations against the runtime's Python source. The
// audit is Python (it reads the source with ast), and so are its options: this command runs
// `python3 -m famspec audit` with every argument after its name (python_command.hpp).
#include "python_command.hpp"

namespace famspec::cli {

void setup_audit(CLI::App& app, Context& context) {
    add_python_command(app, context, "audit", "Check every family declaration against the runtime's Python source",
                       "Exit codes: 0 nothing drifts, 1 drift, 2 bad root or arguments.", {.json = true});
}

}  // namespace famspec::cli
