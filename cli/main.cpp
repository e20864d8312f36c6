// famspec: list the plugins, show a family, verify loading in isolation, resolve targets and check
// whole plans. Exit codes: 0 ok, 1 a failure or a gap, 2 a usage error or bad input.
#include <iostream>

#include "app.hpp"
#include "exit_guard.hpp"
#include "famspec/nearest_names.hpp"
#include "load_watch.hpp"
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

int usage_error(const Invocation& invocation, const std::string& message) {
    return invocation.context.fail(kExitUsage, {"usage", message, {}, {}, {}}, std::cout, std::cerr);
}

// CLI11's parse error, or a command nobody declared, as a usage error (JSON too with --json).
int parse_failure(const CLI::App& app, Invocation& invocation, int argc, char** argv, const CLI::ParseError& e) {
    invocation.context.json = wants_json(argc, argv);
    const std::string word = command_word(argc, argv);
    const std::vector<std::string> names = command_names(app);
    if (!word.empty() && std::find(names.begin(), names.end(), word) == names.end() && app.get_subcommands().empty()) {
        return usage_error(invocation, "unknown command '" + word + "'" +
                                           famspec::did_you_mean(famspec::nearest_names(word, names)) +
                                           "; famspec --help lists the commands");
    }
    if (word.empty() && app.get_subcommands().empty()) {
        return usage_error(invocation, "a command is required: " + join(names, ", ") + " (famspec --help)");
    }
    std::string what = e.what();
    const std::string sub = app.get_subcommands().empty() ? "" : " " + app.get_subcommands().front()->get_name();
    return usage_error(invocation, what + " (famspec" + sub + " --help shows the usage)");
}

int run_parsed(const CLI::App& app, Invocation& invocation) {
    ExitGuard::report_json(invocation.context.json);
    // JSON is safe as it is, and summary and resolve print JSON (the summary's bytes are digested).
    const std::string command = app.get_subcommands().front()->get_name();
    escape_stdout(!invocation.context.json && command != "summary" && command != "resolve");
    try {
        return dispatch(app, invocation);
    } catch (const UsageError& error) {
        return usage_error(invocation, error.what());
    }
}

int run(int argc, char** argv) {
    Invocation invocation;
    const std::unique_ptr<CLI::App> app = make_app(invocation);
    try {
        app->parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app->exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app->exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app->exit(e);
    } catch (const CLI::ParseError& e) {
        return parse_failure(*app, invocation, argc, argv, e);
    }
    return run_parsed(*app, invocation);
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
    return watch_finished(finish_output(code));  // the parent of a forked load exits with this
}
