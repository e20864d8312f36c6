// The famspec command line, defined once with CLI11: main() parses with it, and the bash
// completion and the man page are generated from the same definitions. The app holds the options
// every command takes; each command adds itself (command.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

#include "context.hpp"

namespace famspec::cli {

// The app with every command, whose options and actions fill and use `context`.
std::unique_ptr<CLI::App> make_app(Context& context);

}  // namespace famspec::cli
