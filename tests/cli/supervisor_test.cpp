// The process supervisor: the verdict on a work process as a pure function of what it recorded and
// its wait status; and famspec interrupted by SIGTERM, SIGINT or SIGHUP while it loads a slow plugin
// ends by the same signal, says so, and leaves no process behind.
#include "supervisor.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_support.hpp"
#include "signal_relay.hpp"

extern char** environ;

using namespace famspec::test::cli;
using famspec::PluginStage;
using famspec::cli::Ending;
using famspec::cli::judge;
using famspec::cli::Verdict;
using famspec::cli::WorkRecord;
using famspec::cli::WorkState;

namespace {

constexpr int exited(int code) { return code << 8; }  // a wait status
constexpr int killed(int signal) { return signal; }
const WorkRecord kInRegister{WorkState::in_plugin, 0, PluginStage::register_, "/p/famspec_x.so", "", ""};

bool process_exists(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

struct Interrupted {
    int status = 0;
    pid_t worker = 0;
    std::string out;
    std::string err;
};

// famspec summary with the slow plugin on its path, sent `signal` once the plugin is loading: to
// famspec, or to the process that loads the plugin.
Interrupted interrupt_while_loading(int signal, bool to_worker = false) {
    TempDir dir;
    const std::string pidfile = (dir / "loading").string();
    std::vector<std::string> args{cli_path(),      "summary",    "--digest",      qwen_plan(),
                                  "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("hangs_in_static_init")};
    std::vector<std::string> environment{"FAMSPEC_TEST_LOADING_PIDFILE=" + pidfile};
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view item(*entry);
        if (!item.starts_with("FAMSPEC_PLUGIN_PATH=") && !item.starts_with("FAMSPEC_TEST_LOADING_PIDFILE="))
            environment.emplace_back(item);
    }
    auto pointers = [](std::vector<std::string>& items) {
        std::vector<char*> out;
        for (auto& item : items) out.push_back(item.data());
        out.push_back(nullptr);
        return out;
    };
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, (dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, (dir / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    auto argv = pointers(args);
    auto envp = pointers(environment);
    pid_t famspec = 0;
    REQUIRE(posix_spawn(&famspec, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0);
    posix_spawn_file_actions_destroy(&actions);

    Interrupted result;
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(50);  // the plugin sleeps 60 s
    while (!fs::exists(pidfile) && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool loading = fs::exists(pidfile);
    if (loading) std::istringstream(read_file(pidfile)) >> result.worker;
    ::kill(to_worker && result.worker > 0 ? result.worker : famspec, signal);
    pid_t waited = 0;
    while ((waited = ::waitpid(famspec, &result.status, WNOHANG)) == 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (waited != famspec) {  // famspec did not end: end it, and fail
        ::kill(famspec, SIGKILL);
        ::waitpid(famspec, &result.status, 0);
        FAIL("famspec did not end after " << famspec::cli::signal_name(signal));
    }
    REQUIRE(loading);
    result.out = read_file(dir / "out");
    result.err = read_file(dir / "err");
    return result;
}

}  // namespace

TEST_CASE("judge: a finished work process ends famspec with its status, silently") {
    const WorkRecord finished{WorkState::finished, 1, PluginStage::open, "", "", ""};
    CHECK(judge(finished, {exited(0)}) == Verdict{"", "", 1, 0});
    CHECK(judge(finished, {exited(2)}) == Verdict{"", "", 2, 0});
    CHECK(judge(finished, {killed(SIGPIPE)}) == Verdict{"", "", 1, SIGPIPE});
    CHECK(judge(finished, {killed(SIGSEGV)}) ==
          Verdict{"crash", "famspec was killed by SIGSEGV after its output was complete", 1, 0});
}

TEST_CASE("judge: a plugin that ends, crashes or stops the work process is named with its stage") {
    CHECK(judge(kInRegister, {exited(0)}) ==
          Verdict{"plugin_exit",
                  "plugin /p/famspec_x.so ended the process (exit status 0) during register, before famspec "
                  "finished; famspec stops with status 1",
                  1, 0});
    CHECK(judge(kInRegister, {killed(SIGKILL)}) ==
          Verdict{"plugin_crash",
                  "plugin /p/famspec_x.so killed the process with SIGKILL during register, before famspec "
                  "finished; famspec stops with status 1",
                  1, 0});
    CHECK(judge(kInRegister, {killed(SIGKILL), 0, SIGSTOP}) ==
          Verdict{"plugin_stopped",
                  "plugin /p/famspec_x.so stopped with SIGSTOP during register; famspec does not wait for a "
                  "stopped process and stops with status 1",
                  1, 0});
    const WorkRecord reported{WorkState::reported, 0, PluginStage::register_, "/p/famspec_x.so", "", ""};
    CHECK(judge(reported, {exited(0)}) == Verdict{"", "", 1, 0});
    // What the work process said itself is said by famspec (with --json on its stdout), status 1.
    const WorkRecord said{WorkState::reported,    0,
                          PluginStage::register_, "/p/famspec_x.so",
                          "plugin_descriptors",   "plugin /p/famspec_x.so closed famspec's descriptors"};
    CHECK(judge(said, {exited(1)}) ==
          Verdict{"plugin_descriptors", "plugin /p/famspec_x.so closed famspec's descriptors", 1, 0});
}

TEST_CASE("judge: a signal that asks to stop is an interruption, never the plugin's fault") {
    CHECK(judge(kInRegister, {killed(SIGTERM), SIGTERM}) ==
          Verdict{"interrupted",
                  "interrupted by SIGTERM during register of plugin /p/famspec_x.so, before famspec finished", 1,
                  SIGTERM});
    // Sent to the work process alone, from outside famspec.
    CHECK(judge(kInRegister, {killed(SIGTERM), 0}).kind == "interrupted");
    CHECK(judge(kInRegister, {killed(SIGUSR1), SIGUSR1}).end_signal == SIGUSR1);
    const WorkRecord working{WorkState::working, 0, PluginStage::open, "", "", ""};
    CHECK(judge(working, {killed(SIGINT), SIGINT}) ==
          Verdict{"interrupted", "interrupted by SIGINT before it loaded plugins, before famspec finished", 1, SIGINT});
}

TEST_CASE("judge: the work process ending early by itself is never a success") {
    const WorkRecord loaded{WorkState::loaded, 0, PluginStage::open, "", "", ""};
    CHECK(judge(loaded, {exited(1)}) == Verdict{"", "", 1, 0});
    CHECK(judge(loaded, {exited(0)}) ==
          Verdict{"internal",
                  "famspec ended with status 0 after its plugins loaded, before it finished; it stops "
                  "with status 1",
                  1, 0});
    CHECK(judge(loaded, {killed(SIGSEGV)}) ==
          Verdict{"crash", "famspec was killed by SIGSEGV after its plugins loaded, before it finished", 1, SIGSEGV});
}

TEST_CASE("SIGTERM, SIGINT and SIGHUP sent to famspec while it loads a slow plugin end it by that signal") {
    const std::string plugin = fixture_file("hangs_in_static_init").string();
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        const std::string name = famspec::cli::signal_name(signal);
        CAPTURE(name);
        const Interrupted result = interrupt_while_loading(signal);
        CHECK(WIFSIGNALED(result.status));
        CHECK(WTERMSIG(result.status) == signal);
        CHECK(result.out.empty());
        CHECK(result.err == "famspec: error: interrupted by " + name + " during open of plugin " + plugin +
                                ", before famspec finished\n");
        // The process that was loading the plugin went with famspec, and famspec reaped it.
        CHECK(result.worker > 0);
        CHECK_FALSE(process_exists(result.worker));
    }
}

TEST_CASE("SIGTERM sent to the process loading a plugin is an interruption, not the plugin's fault") {
    const Interrupted result = interrupt_while_loading(SIGTERM, true);
    CHECK(WIFSIGNALED(result.status));
    CHECK(WTERMSIG(result.status) == SIGTERM);
    CHECK(result.err == "famspec: error: interrupted by SIGTERM during open of plugin " +
                            fixture_file("hangs_in_static_init").string() + ", before famspec finished\n");
    CHECK_FALSE(process_exists(result.worker));
}

TEST_CASE("a plugin that stops its process (raise(SIGSTOP)) is reported and killed, not waited for") {
    const std::string plugin = fixture_file("stops_in_register").string();
    const ProcessResult result = run_cli({"summary", "--digest", qwen_plan(), "--plugin-path", plugin_dir(),
                                          "--plugin-path", fixture_dir("stops_in_register")});
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: error: plugin " + plugin +
                            " stopped with SIGSTOP during open; famspec does not wait for a stopped process and "
                            "stops with status 1\n");
}

TEST_CASE("a Python command whose interpreter stops on its own is reported and killed, not waited for") {
    TempDir dir;
    const fs::path python = dir / "python3";
    const fs::path pidfile = dir / "python.pid";
    // An interpreter that passes the handshake, then stops itself: no one will send SIGCONT.
    std::ofstream(python) << "#!/bin/sh\nprintf 'famspec-python 1\\n' >&3\necho $$ > \"$FAMSPEC_TEST_PYTHON_PIDFILE\"\n"
                             "kill -STOP $$\n";
    fs::permissions(python, fs::perms::owner_all);
    ProcessOptions options;
    options.environment["FAMSPEC_PYTHON"] = python.string();
    options.environment["FAMSPEC_TEST_PYTHON_PIDFILE"] = pidfile.string();
    const ProcessResult result = run_cli({"audit", "--help"}, options);
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: error: " + python.string() +
                            " running famspec audit stopped with SIGSTOP; famspec does not wait for a stopped process "
                            "and stops with status 1\n");
    pid_t stopped = 0;
    std::istringstream(read_file(pidfile)) >> stopped;
    REQUIRE(stopped > 0);
    CHECK_FALSE(process_exists(stopped));  // killed, and reaped by famspec
}
