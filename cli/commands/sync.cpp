// famspec sync: a family's plugin project generated from the runtime's Python source. The generator
// is Python (it reads the source with ast, as the audit does), and so are its options: this command
// runs `python3 -m famspec sync` with every argument after its name (python_command.hpp).
#include "python_command.hpp"

namespace famspec::cli {

void setup_sync(CLI::App& app, Context& context) {
    add_python_command(app, context, "sync", "Generate a family's plugin project from the runtime's Python source",
                       "Exit codes: 0 written or up to date, 1 TODOs left or --check differs, 2 bad input.",
                       {.json = true, .quiet = true});
}

}  // namespace famspec::cli
