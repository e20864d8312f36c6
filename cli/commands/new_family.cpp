// famspec new-family NAME: a ready-to-build out-of-tree family project. It is written by sync's
// renderer and writer, in Python (python/famspec/new_family.py), and so are its options: this command
// runs `python3 -m famspec new-family` with every argument after its name (python_command.hpp).
#include "python_command.hpp"

namespace famspec::cli {

void setup_new_family(CLI::App& app, Context& context) {
    add_python_command(app, context, "new-family", "Write a ready-to-build out-of-tree family project",
                       "Exit codes: 0 written, 1 the directory exists or cannot be written, 2 an invalid name, "
                       "architecture or directory.",
                       {.json = true, .plugin_path = false});
}

}  // namespace famspec::cli
