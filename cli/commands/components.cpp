// famspec components: the component catalogue.
#include <iostream>

#include "catalogue_commands.hpp"
#include "command.hpp"

namespace famspec::cli {

void setup_components(CLI::App& app, Context& context) {
    CLI::App* components =
        add_command(app, "components", "The component catalogue: every registered component and its signature");
    on_run(components, context, [&context] { return list_components(context, std::cout, std::cerr); });
}

}  // namespace famspec::cli
