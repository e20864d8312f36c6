#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "signal_relay.hpp"

extern char** environ;

namespace famspec::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Parent ends above the low descriptors, so posix_spawn's dup2 never maps a descriptor onto itself
// (which would keep its close-on-exec flag).
constexpr int kFirstParentFd = 10;

struct Pipe {
    int read = -1;
    int write = -1;
};

bool open_pipe(Pipe& p) {
    std::array<int, 2> fds{};
    if (pipe2(fds.data(), O_CLOEXEC) != 0) return false;
    p.read = fcntl(fds[0], F_DUPFD_CLOEXEC, kFirstParentFd);
    p.write = fcntl(fds[1], F_DUPFD_CLOEXEC, kFirstParentFd);
    close(fds[0]);
    close(fds[1]);
    return p.read >= 0 && p.write >= 0;
}

void close_fd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

// Writes what the pipe takes now; a reader that went away (EPIPE) must not kill this process.
void write_input(int& fd, std::string_view& left) {
    sigset_t pipe_signal;
    sigset_t previous;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
    const ssize_t n = write(fd, left.data(), left.size());
    if (n < 0 && errno == EPIPE) {
        const timespec zero{};
        sigtimedwait(&pipe_signal, nullptr, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (n > 0) left.remove_prefix(static_cast<std::size_t>(n));
    if ((n < 0 && errno != EAGAIN && errno != EINTR) || left.empty()) close_fd(fd);
}

// The signal `pid` stopped with, when it is stopped (0 otherwise).
int stop_signal(pid_t pid) {
    siginfo_t info{};
    const bool reported = waitid(P_PID, static_cast<id_t>(pid), &info, WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
                          info.si_pid == pid && info.si_code == CLD_STOPPED;
    return reported && still_stopped(pid) ? info.si_status : 0;
}

bool has_exited(pid_t pid) {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

struct Spawned {
    pid_t pid = 0;
    int error = 0;
};

Spawned spawn(const ChildOptions& options, int input, const std::vector<std::pair<int, int>>& mapped) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (input >= 0)
        posix_spawn_file_actions_adddup2(&actions, input, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    auto given = [&](int fd) {
        auto is_fd = [fd](const auto& m) { return m.first == fd; };
        return std::any_of(mapped.begin(), mapped.end(), is_fd) ||
               std::any_of(options.descriptors.begin(), options.descriptors.end(), is_fd);
    };
    for (int fd : {1, 2}) {
        if (!given(fd)) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0);
    }
    for (const auto& [child_fd, parent_fd] : mapped) posix_spawn_file_actions_adddup2(&actions, parent_fd, child_fd);
    for (const auto& [child_fd, parent_fd] : options.descriptors) {
        if (parent_fd < 0)
            posix_spawn_file_actions_addclose(&actions, child_fd);
        else
            posix_spawn_file_actions_adddup2(&actions, parent_fd, child_fd);
    }
    if (!options.working_directory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, options.working_directory.c_str());
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);  // famspec ignores SIGPIPE; the child starts with the default
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    std::vector<char*> argv;
    for (const auto& a : options.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    if (options.environment) {
        for (const auto& e : *options.environment) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
    }
    Spawned spawned;
    spawned.error = posix_spawnp(&spawned.pid, argv[0], &actions, &attributes, argv.data(),
                                 options.environment ? envp.data() : environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return spawned;
}

// The parent's side of a running child: feeds its stdin, hands each output chunk to its sink, and
// ends once the child has exited and every pipe is closed.
class Pump {
public:
    Pump(const ChildOptions& options, pid_t pid, Pipe input, std::vector<Pipe> outputs)
        : options_(options), pid_(pid), input_(input), outputs_(std::move(outputs)), input_left_(options.input) {
        if (input_.write >= 0) fcntl(input_.write, F_SETFL, O_NONBLOCK);
        if (options.timeout) deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(*options.timeout);
    }

    int stopped_by() const { return stopped_by_; }

    // Returns whether the child timed out.
    bool run() {
        for (;;) {
            const bool exited = has_exited(pid_);
            if (!killed_ && (exited || Clock::now() >= deadline_)) kill_group(!exited);
            if (!killed_ && options_.kill_if_stopped && (stopped_by_ = stop_signal(pid_)) != 0) kill_group(false);
            // A grandchild that left the group may hold a pipe; stop waiting for it after a while.
            if (killed_ && Clock::now() >= drain_deadline_) close_all();
            std::vector<pollfd> fds;
            for (const Pipe& p : outputs_) {
                if (p.read >= 0) fds.push_back({p.read, POLLIN, 0});
            }
            if (input_.write >= 0) fds.push_back({input_.write, POLLOUT, 0});
            if (fds.empty() && exited) break;
            // Short slices while the child runs, to notice its exit even if a grandchild holds a pipe.
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
            const int wait_ms =
                killed_ ? 100 : static_cast<int>(std::clamp<long long>(left.count(), 0, fds.empty() ? 10 : 100));
            if (poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) close_all();
            for (const pollfd& ready : fds) {
                if (ready.revents != 0) service(ready.fd);
            }
        }
        close_fd(input_.write);
        return timed_out_;
    }

private:
    void kill_group(bool timed_out) {
        // A finished child's group is killed too: a grandchild must not outlive the call.
        timed_out_ = timed_out;
        kill(-pid_, SIGKILL);
        killed_ = true;
        drain_deadline_ = Clock::now() + std::chrono::seconds(2);
    }

    void close_all() {
        close_fd(input_.write);
        for (Pipe& p : outputs_) close_fd(p.read);
    }

    void service(int fd) {
        if (fd == input_.write) {
            write_input(input_.write, input_left_);
            return;
        }
        for (std::size_t i = 0; i < outputs_.size(); ++i) {
            if (outputs_[i].read != fd) continue;
            const ssize_t n = read(fd, chunk_.data(), chunk_.size());
            if (n < 0 && errno == EINTR) return;
            if (n <= 0) {
                close_fd(outputs_[i].read);
                return;
            }
            options_.outputs[i].second(std::string_view(chunk_.data(), static_cast<std::size_t>(n)));
        }
    }

    const ChildOptions& options_;
    pid_t pid_;
    Pipe input_;
    std::vector<Pipe> outputs_;
    std::string_view input_left_;
    Clock::time_point deadline_ = Clock::time_point::max();
    Clock::time_point drain_deadline_ = Clock::time_point::max();
    bool killed_ = false;
    bool timed_out_ = false;
    int stopped_by_ = 0;
    std::array<char, 65536> chunk_{};
};

}  // namespace

bool still_stopped(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t paren = text.rfind(')');
    return paren != std::string::npos && paren + 2 < text.size() && (text[paren + 2] == 'T' || text[paren + 2] == 't');
}

ChildResult run_child(const ChildOptions& options) {
    ChildResult result;
    if (options.argv.empty()) {
        result.spawn_error = "no program to run";
        return result;
    }
    Pipe input;
    std::vector<Pipe> outputs(options.outputs.size());
    bool piped = options.input.empty() || open_pipe(input);
    for (Pipe& p : outputs) piped = piped && open_pipe(p);
    const int pipe_error = errno;
    std::vector<std::pair<int, int>> mapped;
    for (std::size_t i = 0; i < outputs.size(); ++i) mapped.emplace_back(options.outputs[i].first, outputs[i].write);
    std::optional<SignalRelay> relay;
    if (options.relay_signals) relay.emplace();
    const Spawned spawned = piped ? spawn(options, input.read, mapped) : Spawned{0, pipe_error};
    close_fd(input.read);
    for (Pipe& p : outputs) close_fd(p.write);
    if (!piped || spawned.error != 0) {
        result.spawn_error = std::string("cannot run ") + options.argv[0] + ": " + std::strerror(spawned.error);
        if (relay) result.relayed_signal = relay->relayed();
        close_fd(input.write);
        for (Pipe& p : outputs) close_fd(p.read);
        return result;
    }
    if (relay) relay->target(-spawned.pid);  // the child's group: spawn made it its leader
    Pump pump(options, spawned.pid, input, std::move(outputs));
    result.timed_out = pump.run();
    result.stopped_by = pump.stopped_by();
    int status = 0;
    while (waitpid(spawned.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    if (relay) result.relayed_signal = relay->relayed();
    return result;
}

}  // namespace famspec::cli
