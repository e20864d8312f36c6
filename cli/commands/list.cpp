// famspec list: the candidate plugins, from their manifests; no plugin code runs.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "plugin_commands.hpp"

namespace famspec::cli {

void setup_list(CLI::App& app, Context& context) {
    auto long_list = std::make_shared<bool>(false);
    CLI::App* list = add_command(app, "list", "List candidate plugins from their manifests (no plugin code runs)");
    list->add_flag("-l,--long", *long_list, "Full paths instead of the 100-column table");
    on_run(list, context, [&context, long_list] { return list_plugins(context, *long_list, std::cout, std::cerr); });
}

}  // namespace famspec::cli
