// famspec new-family NAME: a ready-to-build out-of-tree family project (cli/new_family.cpp).
#include "new_family.hpp"

#include <iostream>
#include <memory>

#include "command.hpp"

namespace famspec::cli {

void setup_new_family(CLI::App& app, Context& context) {
    auto options = std::make_shared<NewFamilyOptions>();
    CLI::App* command = add_command(app, "new-family", "Write a ready-to-build out-of-tree family project");
    command->add_option("NAME", options->name, "Family model_type and plugin name, e.g. acme_moe")
        ->required()
        ->check(kNonEmpty);
    command->add_option("--architecture", options->architecture, "HF architecture, e.g. AcmeMoeForCausalLM")
        ->required()
        ->type_name("ARCH")
        ->check(kNonEmpty);
    command->add_option("--dir", options->directory, "Directory to create (default ./NAME)")
        ->type_name("DIR")
        ->check(kNonEmpty);
    on_run(command, context, [&context, options] { return new_family(*options, std::cout, std::cerr, context.json); });
}

}  // namespace famspec::cli
