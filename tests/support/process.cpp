#include "process.hpp"

#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <stdexcept>

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
    std::array<int, 2> out_pipe{};
    std::array<int, 2> err_pipe{};
    std::array<int, 2> in_pipe{};
    if (pipe(out_pipe.data()) != 0 || pipe(err_pipe.data()) != 0 || pipe(in_pipe.data()) != 0) {
        throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
        posix_spawn_file_actions_addclose(&actions, fd);
    }
    if (!options.working_directory.empty()) {
        posix_spawn_file_actions_addchdir_np(&actions, options.working_directory.c_str());
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const std::vector<std::string> environment = merged_environment(options);
    std::vector<char*> envp;
    for (const auto& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);

    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (spawned != 0) {
        close(in_pipe[1]);
        close(out_pipe[0]);
        close(err_pipe[0]);
        throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(spawned));
    }
    if (!options.input.empty()) {
        [[maybe_unused]] const auto written = write(in_pipe[1], options.input.data(), options.input.size());
    }
    close(in_pipe[1]);

    ProcessResult result;
    std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
    int open_fds = 2;
    std::array<char, 65536> buffer{};
    while (open_fds > 0) {
        if (poll(fds.data(), fds.size(), -1) < 0) break;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = read(fds[i].fd, buffer.data(), buffer.size());
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
                continue;
            }
            (i == 0 ? result.out : result.err).append(buffer.data(), static_cast<std::size_t>(n));
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
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
std::string source_dir() { return FAMSPEC_TEST_SOURCE_DIR; }
std::string build_dir() { return FAMSPEC_TEST_BUILD_DIR; }

}  // namespace famspec::test
