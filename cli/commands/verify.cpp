// famspec verify: every plugin file read and checked whole (cli/verify.cpp), and how each fared.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "plugin_commands.hpp"

namespace famspec::cli {

void setup_verify(CLI::App& app, Context& context) {
    auto long_list = std::make_shared<bool>(false);
    CLI::App* verify = add_command(app, "verify", "Read and check every plugin file whole, naming every refusal");
    verify->add_flag("-l,--long", *long_list, "Full paths instead of the 100-column table");
    on_run(verify, context,
           [&context, long_list] { return verify_plugins(context, *long_list, std::cout, std::cerr); });
}

}  // namespace famspec::cli
