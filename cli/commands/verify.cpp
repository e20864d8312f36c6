// famspec verify: each plugin loaded in a child process (cli/verify.cpp), and how it fared.
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "command.hpp"
#include "plugin_commands.hpp"

namespace famspec::cli {
namespace {

struct VerifyOptions {
    std::string timeout = "10";  // checked after parsing, so the message can quote what was given
    bool long_list = false;
};

// A number of seconds in (0, 86400]; nullopt for anything else (not a number, inf, nan, 0, 1e400).
std::optional<double> parse_seconds(const std::string& text) {
    if (text.empty() || text.size() > 32) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() || !(value > 0.0 && value <= 86400.0)) return std::nullopt;
    return value;
}

}  // namespace

void setup_verify(CLI::App& app, Context& context) {
    auto options = std::make_shared<VerifyOptions>();
    CLI::App* verify = add_command(app, "verify", "Load each plugin in a child process and report how it fares");
    verify->add_option("--timeout", options->timeout, "Seconds each plugin may take to load: (0, 86400], default 10")
        ->type_name("SECONDS");
    verify->add_flag("-l,--long", options->long_list, "Full paths instead of the 100-column table");
    on_run(verify, context, [&context, options] {
        const std::optional<double> timeout = parse_seconds(options->timeout);
        if (!timeout) {
            throw UsageError("--timeout must be a number of seconds more than 0 and at most 86400 (one day), got '" +
                             options->timeout + "'");
        }
        return verify_plugins(context, *timeout, options->long_list, std::cout, std::cerr);
    });

    // verify's child: loads one plugin and reports on fd 3. Hidden.
    auto file = std::make_shared<std::string>();
    CLI::App* probe = app.add_subcommand("__probe", "");
    probe->group("");
    probe->add_option("FILE", *file)->required()->check(kNonEmpty);
    on_run(probe, context, [file] { return probe_plugin(*file, 3); });
}

}  // namespace famspec::cli
