#include "load_watch.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>

#include "escape.hpp"
#include "famspec/names.hpp"
#include "load_watch_state.hpp"

namespace famspec::cli {
namespace {

using namespace detail;
using Shared = WatchShared;

Shared* shared = nullptr;  // set in the child only
bool started = false;
volatile sig_atomic_t child_pid = 0;

void forward_signal(int signal) {
    if (child_pid > 0) ::kill(child_pid, signal);
}

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

void write_all(int fd, const std::string& text) {
    std::string_view rest(text);
    while (!rest.empty()) {
        const ssize_t n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
}

void report(bool json, const std::string& kind, const std::string& message) {
    write_all(2, "famspec: error: " + escape_control(message) + "\n");
    if (json) {
        const boost::json::object error{
            {"kind", kind}, {"message", message}, {"file", nullptr}, {"line", nullptr}, {"column", nullptr}};
        write_all(1, boost::json::serialize(boost::json::object{{"error", error}}) + "\n");
    }
}

[[noreturn]] void end_like(int signal) {
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal);
    _exit(128 + signal);
}

// The parent's whole life after the fork: wait, then end as the child's fate says.
[[noreturn]] void wait_for(pid_t child, const Shared& told, bool json) {
    child_pid = child;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, nullptr);  // the terminal sends these to the child too; its fate decides
    sigaction(SIGQUIT, &ignore, nullptr);
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    for (const int signal : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(signal, &forward, nullptr);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno == EINTR) continue;
        report(json, "internal", "famspec lost its work process: " + std::string(std::strerror(errno)));
        _exit(1);
    }
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : 0;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const std::string fate = exited ? "ended the process (exit status " + std::to_string(code) + ")"
                                    : "killed the process with " + signal_name(signal);
    switch (told.state.load()) {
        case kFinished:
            if (exited) _exit(code != 0 ? code : told.code);
            report(json, "crash", "famspec was killed by " + signal_name(signal) + " after its output was complete");
            _exit(told.code != 0 ? told.code : 1);
        case kReported:  // ExitGuard said which plugin called exit()
            _exit(exited && code != 0 ? code : 1);
        case kInPlugin: {
            if (signal == SIGINT) break;
            const std::string path(told.path, std::min(told.path_size, sizeof told.path));
            report(json, exited ? "plugin_exit" : "plugin_crash",
                   "plugin " + path + " " + fate + " during " +
                       std::string(name_of(static_cast<PluginStage>(told.stage))) +
                       ", before famspec finished; famspec stops with status 1");
            _exit(1);
        }
        default:
            break;
    }
    const std::string when = told.state.load() == kLoaded ? "after its plugins loaded" : "before it loaded plugins";
    if (exited) {
        if (code != 0) _exit(code);  // famspec's own failure, reported by famspec
        report(json, "internal",
               "famspec ended with status 0 " + when + ", before it finished; it stops with status 1");
        _exit(1);
    }
    if (signal != SIGINT && signal != SIGPIPE && signal != SIGTERM && signal != SIGHUP) {
        report(json, "crash", "famspec was killed by " + signal_name(signal) + " " + when + ", before it finished");
    }
    end_like(signal);
}

}  // namespace

void start_watched_work(bool json) {
    if (started) return;
    started = true;
    if ((shared = start_sharing_memory(json)) != nullptr) return;
    void* memory = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;  // the work goes on here, guarded by ExitGuard only
    auto* told = new (memory) Shared;
    // Nothing buffered may be written twice, by both processes.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        ::munmap(memory, sizeof(Shared));
        return;
    }
    if (child > 0) wait_for(child, *told, json);
    // The child dies with its parent, so no work outlives a killed famspec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    shared = told;
}

void watch_entering(const std::string& path, PluginStage stage) {
    if (shared == nullptr) return;
    if (stage < PluginStage::open) return;  // the loader's own checks: no plugin code runs yet
    shared->path_size = std::min(path.size(), sizeof shared->path);
    std::memcpy(shared->path, path.data(), shared->path_size);
    shared->stage = static_cast<int>(stage);
    shared->state.store(kInPlugin);
}

void watch_loaded() {
    if (shared != nullptr && shared->state.load() <= kInPlugin) shared->state.store(kLoaded);
}

void watch_reported() {
    if (shared != nullptr) shared->state.store(kReported);
}

int watch_finished(int code) {
    if (shared != nullptr) {
        shared->code = code;
        shared->state.store(kFinished);
    }
    return code;
}

}  // namespace famspec::cli
