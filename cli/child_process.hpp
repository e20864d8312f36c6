// Runs a program in a child process and collects what it writes: the one spawn-and-poll loop, shared
// by `famspec verify`, the Python-backed commands and the test suite (see supervisor.hpp). The child runs in its own
// process group, which is killed when the child exits or times out, so a grandchild it forked cannot outlive the call
// or hold its pipes open.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace famspec::cli {

struct ChildOptions {
    std::vector<std::string> argv;                        // argv[0] is looked up in PATH unless it has a '/'
    std::optional<std::vector<std::string>> environment;  // NAME=value entries; nullopt: inherit
    std::string working_directory;                        // empty: inherit
    std::string input;                                    // written to the child's stdin (then closed)
    // Descriptors the child writes to (1, 2, 3...) and what receives each chunk; a descriptor among
    // 0..2 that is not listed is /dev/null in the child.
    std::vector<std::pair<int, std::function<void(std::string_view)>>> outputs;
    std::optional<std::chrono::duration<double>> timeout;  // then the group is killed
    // Descriptors given as they are: child fd <- parent fd, or -1 to leave the child's fd closed.
    std::vector<std::pair<int, int>> descriptors;
    // Signals sent to this process meanwhile go on to the child's group (signal_relay.hpp); the
    // caller then ends as interrupted (ChildResult::relayed_signal).
    bool relay_signals = false;
    // A child that stops on its own (SIGSTOP, SIGTSTP...) is not waited for: its group is killed
    // (ChildResult::stopped_by).
    bool kill_if_stopped = false;
};

struct ChildResult {
    int exit_code = -1;  // -1 unless the child exited normally
    int signal = 0;      // the signal that killed it, if one did
    bool timed_out = false;
    std::string spawn_error;  // non-empty: the child never started
    int relayed_signal = 0;   // the last signal relayed to the child (relay_signals)
    int stopped_by = 0;       // the signal it stopped with when it was killed for it (kill_if_stopped)
};

ChildResult run_child(const ChildOptions& options);

// Whether `pid` is stopped now, by its /proc state: after Ctrl-Z famspec and a child in its process
// group stop together and the shell's SIGCONT wakes both, so only a child that stopped alone is
// still stopped by the time famspec looks.
bool still_stopped(pid_t pid);

}  // namespace famspec::cli
