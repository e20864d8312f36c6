#include "process.hpp"

#include <algorithm>
#include <stdexcept>

#include "child_process.hpp"

extern char** environ;

namespace famspec::test {
namespace {

std::vector<std::string> merged_environment(const ProcessOptions& options) {
    std::map<std::string, std::string> variables;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string text(*entry);
        const std::size_t eq = text.find('=');
        if (eq != std::string::npos) variables[text.substr(0, eq)] = text.substr(eq + 1);
    }
    for (const auto& [name, value] : options.environment) {
        if (value)
            variables[name] = *value;
        else
            variables.erase(name);
    }
    std::vector<std::string> out;
    for (const auto& [name, value] : variables) out.push_back(name + "=" + value);
    return out;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
    ProcessResult result;
    cli::ChildOptions child;
    child.argv = argv;
    child.environment = merged_environment(options);
    child.working_directory = options.working_directory;
    child.input = options.input;
    child.descriptors = options.descriptors;
    for (const auto& [fd, sink] : {std::pair<int, std::string*>{1, &result.out}, {2, &result.err}}) {
        const bool given = std::any_of(options.descriptors.begin(), options.descriptors.end(),
                                       [fd = fd](const auto& d) { return d.first == fd; });
        if (!given) child.outputs.emplace_back(fd, [sink = sink](std::string_view chunk) { sink->append(chunk); });
    }
    const cli::ChildResult outcome = cli::run_child(child);
    if (!outcome.spawn_error.empty()) throw std::runtime_error(outcome.spawn_error);
    result.exit_code = outcome.exit_code;
    result.signal = outcome.signal;
    return result;
}

ProcessResult run_cli(const std::vector<std::string>& arguments, ProcessOptions options) {
    std::vector<std::string> argv{cli_path()};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    for (const char* variable : {"FAMSPEC_PLUGIN_PATH", "FAMSPEC_ALLOW_INSECURE", "FAMSPEC_REQUIRE_DIGESTS"}) {
        options.environment.try_emplace(variable, std::nullopt);
    }
    return run_process(argv, options);
}

std::string cli_path() { return FAMSPEC_TEST_CLI; }
std::string plugin_dir() { return FAMSPEC_TEST_PLUGIN_DIR; }
std::string fixture_dir(const std::string& name) { return std::string(FAMSPEC_TEST_FIXTURE_DIR) + "/" + name; }
std::filesystem::path fixture_file(const std::string& name) {
    return std::filesystem::path(fixture_dir(name)) / ("famspec_" + name + ".so");
}

std::filesystem::path shipped_components() {
    return std::filesystem::path(FAMSPEC_TEST_PLUGIN_DIR) / "famspec_components.so";
}
std::string source_dir() { return FAMSPEC_TEST_SOURCE_DIR; }
std::string build_dir() { return FAMSPEC_TEST_BUILD_DIR; }

}  // namespace famspec::test
