// The process supervisor, for the one place famspec still runs other code: the Python-backed commands
// (audit, sync) run python3 in a child. Its verdicts are pure functions; famspec interrupted by
// SIGTERM, SIGINT or SIGHUP while a slow Python child runs ends by the same signal, says so, and
// leaves no process behind; a child that stops on its own is killed, not waited for.
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
using famspec::cli::interrupted;
using famspec::cli::stopped_alone;
using famspec::cli::Verdict;

namespace {

bool process_exists(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// A fake interpreter (FAMSPEC_PYTHON) that passes the handshake, writes its pid, and then sleeps for
// a minute as the very same process.
fs::path slow_python(const TempDir& dir) {
    const fs::path python = dir / "python3";
    std::ofstream(python) << "#!/bin/sh\nprintf 'famspec-python 1\\n' >&3\nexec 3>&-\n"
                             "echo $$ > \"$FAMSPEC_TEST_PYTHON_PIDFILE\"\nexec sleep 60\n";
    fs::permissions(python, fs::perms::owner_all);
    return python;
}

struct Interrupted {
    int status = 0;
    pid_t child = 0;
    std::string python;
    std::string out;
    std::string err;
};

// famspec audit with the slow interpreter, sent `signal` once the interpreter runs: to famspec, or to
// the interpreter alone.
Interrupted interrupt_while_python_runs(int signal, bool to_child = false) {
    TempDir dir;
    const std::string pidfile = (dir / "running").string();
    Interrupted result;
    result.python = slow_python(dir).string();
    std::vector<std::string> args{cli_path(), "audit", "--help"};
    std::vector<std::string> environment{"FAMSPEC_TEST_PYTHON_PIDFILE=" + pidfile, "FAMSPEC_PYTHON=" + result.python};
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view item(*entry);
        if (!item.starts_with("FAMSPEC_PLUGIN_PATH=") && !item.starts_with("FAMSPEC_TEST_PYTHON_PIDFILE=") &&
            !item.starts_with("FAMSPEC_PYTHON="))
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

    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(50);  // the interpreter sleeps 60 s
    const auto has_pid = [&] { return !read_file(pidfile).empty(); };
    while (!has_pid() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool running = has_pid();
    if (running) std::istringstream(read_file(pidfile)) >> result.child;
    ::kill(to_child && result.child > 0 ? result.child : famspec, signal);
    pid_t waited = 0;
    while ((waited = ::waitpid(famspec, &result.status, WNOHANG)) == 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (waited != famspec) {  // famspec did not end: end it, and fail
        ::kill(famspec, SIGKILL);
        ::waitpid(famspec, &result.status, 0);
        if (result.child > 0) ::kill(result.child, SIGKILL);
        FAIL("famspec did not end after " << famspec::cli::signal_name(signal));
    }
    REQUIRE(running);
    result.out = read_file(dir / "out");
    result.err = read_file(dir / "err");
    return result;
}

}  // namespace

TEST_CASE("verdicts: a child that stopped on its own, and famspec interrupted") {
    CHECK(stopped_alone("python3 running famspec audit", SIGSTOP) ==
          Verdict{"stopped",
                  "python3 running famspec audit stopped with SIGSTOP; famspec does not wait for a stopped process "
                  "and stops with status 1",
                  1, 0});
    CHECK(stopped_alone("python3 running famspec sync", SIGTSTP, "after it wrote OUT", "python_stopped") ==
          Verdict{"python_stopped",
                  "python3 running famspec sync stopped with SIGTSTP after it wrote OUT; famspec does not wait for a "
                  "stopped process and stops with status 1",
                  1, 0});
    CHECK(interrupted(SIGINT, "while python3 ran famspec audit") ==
          Verdict{"interrupted", "interrupted by SIGINT while python3 ran famspec audit, before famspec finished", 1,
                  SIGINT});
    CHECK(interrupted(SIGUSR1, "while python3 ran famspec sync").end_signal == SIGUSR1);
}

TEST_CASE("SIGTERM, SIGINT and SIGHUP sent to famspec while a slow Python child runs end it by that signal") {
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        const std::string name = famspec::cli::signal_name(signal);
        CAPTURE(name);
        const Interrupted result = interrupt_while_python_runs(signal);
        CHECK(WIFSIGNALED(result.status));
        CHECK(WTERMSIG(result.status) == signal);
        CHECK(result.out.empty());
        CHECK(result.err == "famspec: error: interrupted by " + name + " while " + result.python +
                                " ran famspec audit, before famspec finished\n");
        // The signal went on to the child, which went with famspec, and famspec reaped it.
        CHECK(result.child > 0);
        CHECK_FALSE(process_exists(result.child));
    }
}

TEST_CASE("SIGTERM sent to the Python child alone is its death, reported, and famspec exits 1") {
    const Interrupted result = interrupt_while_python_runs(SIGTERM, true);
    CHECK(WIFEXITED(result.status));
    CHECK(WEXITSTATUS(result.status) == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec audit: " + result.python + " was killed by SIGTERM\n");
    CHECK_FALSE(process_exists(result.child));
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

    // With --json the same verdict is the error object on stdout.
    const ProcessResult as_json = run_cli({"--json", "audit", "--help"}, options);
    CHECK(as_json.exit_code == kFailed);
    const json::value error = json::parse(as_json.out);
    CHECK(text(error.at("error").as_object(), "kind") == "stopped");
}
