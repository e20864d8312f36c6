#include "command.hpp"

#include <iostream>

#include "output.hpp"

namespace famspec::cli {
namespace {

int status = kExitUsage;

}  // namespace

const CLI::Validator kNonEmpty([](const std::string& value) { return value.empty() ? "must not be empty" : ""; }, "",
                               "NONEMPTY");

CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description) {
    CLI::App* command = app.add_subcommand(name, description);
    command->fallthrough();
    return command;
}

void on_run(CLI::App* command, Context& context, std::function<int()> action) {
    command->callback([&context, action = std::move(action)] {
        escape_stdout(!context.json);
        try {
            status = action();
        } catch (const UsageError& error) {
            status = context.fail(kExitUsage, {"usage", error.what(), {}, {}, {}}, std::cout, std::cerr);
        }
    });
}

int command_status() { return status; }

}  // namespace famspec::cli
