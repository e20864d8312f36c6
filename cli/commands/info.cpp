// famspec info FILE: a plugin file's manifest, ABI and fingerprint, without loading it.
#include <iostream>
#include <memory>

#include "catalogue_commands.hpp"
#include "command.hpp"

namespace famspec::cli {

void setup_info(CLI::App& app, Context& context) {
    auto file = std::make_shared<std::string>();
    CLI::App* info = add_command(app, "info", "A plugin file's manifest, ABI and fingerprint, without loading it");
    info->add_option("FILE", *file, "Plugin file (famspec_NAME.so)")->required()->check(kNonEmpty);
    on_run(info, context, [&context, file] { return plugin_info(context, *file, std::cout, std::cerr); });
}

}  // namespace famspec::cli
