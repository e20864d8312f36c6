// Runs a program (the famspec CLI, a compiler, cmake) and captures what it printed.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace famspec::test {

struct ProcessResult {
    int exit_code = -1;  // -1 when killed by a signal
    int signal = 0;
    std::string out;
    std::string err;
};

struct ProcessOptions {
    // Variables to set (a value) or remove (nullopt) on top of the current environment.
    std::map<std::string, std::optional<std::string>> environment;
    std::string working_directory;  // empty: inherit
    std::string input;              // written to the child's stdin
    // Child descriptors given as they are (child fd <- parent fd, -1: closed), e.g. a stdout on
    // /dev/full; such a descriptor is not captured.
    std::vector<std::pair<int, int>> descriptors;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// The famspec CLI of this build, with FAMSPEC_PLUGIN_PATH, FAMSPEC_ALLOW_INSECURE and
// FAMSPEC_REQUIRE_DIGESTS removed unless options set them.
ProcessResult run_cli(const std::vector<std::string>& arguments, ProcessOptions options = {});

// Paths of this build.
std::string cli_path();
std::string plugin_dir();                                     // build/lib/famspec/plugins
std::string fixture_dir(const std::string& name);             // build/tests/fixtures/<name>
std::filesystem::path fixture_file(const std::string& name);  // .../<name>/famspec_<name>.so
// The shipped `components` plugin: the catalogue most factories construct from, which a fixture
// with such factories needs on its path to load.
std::filesystem::path shipped_components();
std::string source_dir();
std::string build_dir();

}  // namespace famspec::test
