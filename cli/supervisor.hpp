// famspec's process supervisor, for the one place it runs other code: the Python-backed commands
// (audit, sync) run python3 in a child (child_process.hpp). Signals sent to famspec go on to the
// child (signal_relay.hpp), a stopped child is not waited for, and the verdict (what to say, and how
// famspec ends) is written by the one error writer (error_report.hpp).
#pragma once

#include <string>
#include <string_view>

namespace famspec::cli {

// What famspec says (nothing when message is empty) and how it ends: by end_signal when not 0,
// else with exit_code.
struct Verdict {
    std::string kind;
    std::string message;
    int exit_code = 1;
    int end_signal = 0;
    bool operator==(const Verdict&) const = default;
};

// A child that stopped on its own (`who`: "python3 running famspec audit"; `when`: "after its
// plugins loaded", or empty; `kind`: the JSON error kind), killed instead of waited for: said,
// and famspec exits 1.
Verdict stopped_alone(std::string_view who, int signal, std::string_view when = {}, std::string kind = "stopped");

// famspec was interrupted by `signal` while `doing` (e.g. "while python3 ran famspec audit"): said,
// and famspec ends by the same signal.
Verdict interrupted(int signal, std::string_view doing);

// Says the verdict (write_error) and ends the process as it says.
[[noreturn]] void end_with(const Verdict& verdict, bool json);

}  // namespace famspec::cli
