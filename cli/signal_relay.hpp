// Signals sent to famspec while it waits for a child process (a command's work process, verify's
// probe, a Python command) go on to that child, so that famspec and its child end together and no
// process is left behind; famspec then ends the way the child did (supervisor.hpp).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace famspec::cli {

// "SIGTERM", or "signal 64" for one without a name.
std::string signal_name(int signal);

// While one lives, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1 and SIGUSR2 sent to this process are
// sent on to the target (a pid, or -pgid for a process group) instead of acting here, except those
// this process was started ignoring; the previous actions come back when it is destroyed. One at a
// time.
class SignalRelay {
public:
    SignalRelay();
    ~SignalRelay();
    SignalRelay(const SignalRelay&) = delete;
    SignalRelay& operator=(const SignalRelay&) = delete;

    // Where signals go from now on; one that arrived before is sent at once.
    void target(pid_t target);
    // The last signal relayed (or held for a target not yet known); 0 for none.
    int relayed() const;
};

// The signals a SignalRelay relays: block them before making a child, and unblock them once the
// relay is in place, so that none arriving in between is lost or acts on this process.
sigset_t relayed_signals();

// Ends this process by `signal`'s default action, so a shell sees what it would have seen from
// the child (falls back to exit status 128 + signal).
[[noreturn]] void end_like(int signal);

}  // namespace famspec::cli
