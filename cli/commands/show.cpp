// famspec show FAMILY: what a family declares.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "plugin_commands.hpp"

namespace famspec::cli {

void setup_show(CLI::App& app, Context& context) {
    auto family = std::make_shared<std::string>();
    CLI::App* show = add_command(app, "show", "Show what a family declares");
    show->add_option("FAMILY", *family, "model_type, architecture or any normalised spelling")
        ->required()
        ->check(kNonEmpty);
    on_run(show, context, [&context, family] { return show_family(context, *family, std::cout, std::cerr); });
}

}  // namespace famspec::cli
