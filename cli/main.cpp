// famspec: list the plugins, show a family, verify every plugin file, resolve targets and check
// whole plans. Exit codes: 0 ok, 1 a failure or a gap, 2 a usage error or bad input.
#include <iostream>

#include "app.hpp"
#include "command.hpp"
#include "famspec/nearest_names.hpp"
#include "output.hpp"

namespace {

using namespace famspec::cli;

// The first word that is neither an option nor an app option's value: the command the user meant.
std::string command_word(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--plugin-path" || arg == "--require-digests") {
            ++i;
            continue;
        }
        if (!arg.starts_with("-")) return std::string(arg);
    }
    return {};
}

bool wants_json(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--json") return true;
    }
    return false;
}

std::vector<std::string> command_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
        names.push_back(sub->get_name());
    return names;
}

int usage_error(const Context& context, const std::string& message) {
    return context.fail(kExitUsage, {"usage", message, {}, {}, {}}, std::cout, std::cerr);
}

// CLI11's parse error, or a command nobody declared, as a usage error (JSON too with --json).
int parse_failure(const CLI::App& app, Context& context, int argc, char** argv, const CLI::ParseError& e) {
    context.json = wants_json(argc, argv);
    const std::string word = command_word(argc, argv);
    const std::vector<std::string> names = command_names(app);
    if (!word.empty() && std::find(names.begin(), names.end(), word) == names.end() && app.get_subcommands().empty()) {
        return usage_error(context, "unknown command '" + word + "'" +
                                        famspec::did_you_mean(famspec::nearest_names(word, names)) +
                                        "; famspec --help lists the commands");
    }
    if (word.empty() && app.get_subcommands().empty()) {
        return usage_error(context, "a command is required: " + join(names, ", ") + " (famspec --help)");
    }
    std::string what = e.what();
    const std::string sub = app.get_subcommands().empty() ? "" : " " + app.get_subcommands().front()->get_name();
    return usage_error(context, what + " (famspec" + sub + " --help shows the usage)");
}

int run(int argc, char** argv) {
    Context context;
    const std::unique_ptr<CLI::App> app = make_app(context);
    try {
        app->parse(argc, argv);  // runs the command (on_run)
    } catch (const CLI::CallForHelp& e) {
        return app->exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app->exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app->exit(e);
    } catch (const CLI::ParseError& e) {
        return parse_failure(*app, context, argc, argv, e);
    }
    return command_status();
}

}  // namespace

int main(int argc, char** argv) {
    install_output();
    int code = kExitUsage;
    try {
        code = run(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << "famspec: " << error.what() << "\n";
        code = kExitUsage;
    }
    return finish_output(code);
}
