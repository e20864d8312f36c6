// famspec interface-component FAMILY: the component class a family renders into the generated file.
#include <iostream>
#include <memory>

#include "catalogue_commands.hpp"
#include "command.hpp"

namespace famspec::cli {

void setup_interface_component(CLI::App& app, Context& context) {
    auto family = std::make_shared<std::string>();
    CLI::App* interface = add_command(app, "interface-component",
                                      "The component class a family renders into the generated file (or None)");
    interface->add_option("FAMILY", *family, "model_type, architecture or any normalised spelling")
        ->required()
        ->check(kNonEmpty);
    on_run(interface, context,
           [&context, family] { return interface_component(context, *family, std::cout, std::cerr); });
}

}  // namespace famspec::cli
