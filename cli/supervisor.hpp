// famspec's process supervisor: how it waits for a child and judges how the child ended. A command
// that loads plugins does its work in a forked child (load_watch.hpp); verify probes each plugin in
// a child and the Python-backed commands run python3 in one (child_process.hpp). In every case
// signals sent to famspec go on to the child (signal_relay.hpp), a stopped child is not waited for,
// and the verdict — what to say, and how famspec ends — is a pure function of what the child
// recorded and its wait status (judge), written by the one error writer (error_report.hpp).
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "famspec/plugin_record.hpp"

namespace famspec::cli {

// How far a work process got, as it records it for the process that waits.
enum class WorkState : int { working, in_plugin, loaded, reported, finished };

struct WorkRecord {
    WorkState state = WorkState::working;
    int code = 0;                           // famspec's status, once finished
    PluginStage stage = PluginStage::open;  // the stage of the plugin at work, when in_plugin
    std::string path;                       // that plugin's file
    std::string kind;                       // what the work process said itself (watch_said), for
    std::string message;                    // the parent to say: its kind and message
};

// How the child ended: its wait status, the signal famspec relayed to it (0 for none), and the
// signal it had stopped with when famspec killed it instead of waiting for it (0 for none).
struct Ending {
    int status = 0;
    int relayed_signal = 0;
    int stopped_by = 0;
};

// What famspec says (nothing when message is empty) and how it ends: by end_signal when not 0,
// else with exit_code.
struct Verdict {
    std::string kind;
    std::string message;
    int exit_code = 1;
    int end_signal = 0;
    bool operator==(const Verdict&) const = default;
};

// The verdict on a work process: famspec exits with the status of a finished one; a plugin that
// ended, crashed or stopped it while it ran is named with its stage (status 1); an interrupted one
// ends famspec by the same signal; and famspec never exits 0 unless the work finished.
Verdict judge(const WorkRecord& record, const Ending& ending);

// A child that stopped on its own (`who`: "python3 running famspec audit"; `when`: "after its
// plugins loaded", or empty; `kind`: the JSON error kind), killed instead of waited for: said,
// and famspec exits 1.
Verdict stopped_alone(std::string_view who, int signal, std::string_view when = {}, std::string kind = "stopped");

// famspec was interrupted by `signal` while `doing` (e.g. "while verify probed plugin P"): said,
// and famspec ends by the same signal.
Verdict interrupted(int signal, std::string_view doing);

// Says the verdict (write_error) and ends the process as it says.
[[noreturn]] void end_with(const Verdict& verdict, bool json);

// Waits for the work process `child` (relaying signals to it; killing it if it stops on its own),
// then ends this process with judge(read_record(), ending). The caller forked with the relayed
// signals blocked (relayed_signals()); they are unblocked once the relay is in place.
[[noreturn]] void supervise_work(pid_t child, WorkRecord (*read_record)(), bool json);

}  // namespace famspec::cli
