#include "supervisor.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "child_process.hpp"
#include "error_report.hpp"
#include "famspec/names.hpp"
#include "signal_relay.hpp"

namespace famspec::cli {
namespace {

// Signals that ask a process to stop: from famspec's relay, a terminal or a service manager. They
// are never a plugin's fault, whoever sent them to the work process.
bool asks_to_stop(int signal) { return signal == SIGTERM || signal == SIGINT || signal == SIGHUP || signal == SIGQUIT; }

std::string plugin_at_work(const WorkRecord& record) {
    return std::string(name_of(record.stage)) + " of plugin " + record.path;
}

std::string when(const WorkRecord& record) {
    return record.state == WorkState::loaded ? "after its plugins loaded" : "before it loaded plugins";
}

}  // namespace

Verdict stopped_alone(std::string_view who, int signal, std::string_view when, std::string kind) {
    return {std::move(kind),
            std::string(who) + " stopped with " + signal_name(signal) + (when.empty() ? "" : " ") + std::string(when) +
                "; famspec does not wait for a stopped process and stops with status 1",
            1, 0};
}

Verdict interrupted(int signal, std::string_view doing) {
    return {"interrupted",
            "interrupted by " + signal_name(signal) + " " + std::string(doing) + ", before famspec finished", 1,
            signal};
}

Verdict judge(const WorkRecord& record, const Ending& ending) {
    const int status = ending.status;
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : 0;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const bool in_plugin = record.state == WorkState::in_plugin;
    if (ending.stopped_by != 0) {
        if (in_plugin) {
            return stopped_alone("plugin " + record.path, ending.stopped_by,
                                 "during " + std::string(name_of(record.stage)), "plugin_stopped");
        }
        return stopped_alone("famspec's work process", ending.stopped_by, when(record));
    }
    if (record.state == WorkState::finished) {
        if (exited) return {"", "", code != 0 ? code : record.code, 0};
        if (signal == ending.relayed_signal || signal == SIGPIPE) return {"", "", 1, signal};
        return {"crash", "famspec was killed by " + signal_name(signal) + " after its output was complete",
                record.code != 0 ? record.code : 1, 0};
    }
    if (record.state == WorkState::reported && !record.message.empty()) return {record.kind, record.message, 1, 0};
    if (record.state == WorkState::reported) return {"", "", exited && code != 0 ? code : 1, 0};  // ExitGuard said
    if (signal != 0 && (signal == ending.relayed_signal || asks_to_stop(signal))) {
        return interrupted(signal, in_plugin ? "during " + plugin_at_work(record) : when(record));
    }
    if (in_plugin) {
        const std::string fate = exited ? "ended the process (exit status " + std::to_string(code) + ")"
                                        : "killed the process with " + signal_name(signal);
        return {exited ? "plugin_exit" : "plugin_crash",
                "plugin " + record.path + " " + fate + " during " + std::string(name_of(record.stage)) +
                    ", before famspec finished; famspec stops with status 1",
                1, 0};
    }
    if (exited) {
        if (code != 0) return {"", "", code, 0};  // famspec's own failure, reported by famspec
        return {"internal",
                "famspec ended with status 0 " + when(record) + ", before it finished; it stops with status 1", 1, 0};
    }
    if (signal == SIGPIPE) return {"", "", 1, signal};  // the reader went away: as any program would end
    return {"crash", "famspec was killed by " + signal_name(signal) + " " + when(record) + ", before it finished", 1,
            signal};
}

void end_with(const Verdict& verdict, bool json) {
    if (!verdict.message.empty()) write_error({verdict.kind, verdict.message, {}, {}, {}}, json, 1);
    if (verdict.end_signal != 0) end_like(verdict.end_signal);
    _exit(verdict.exit_code);
}

void supervise_work(pid_t child, WorkRecord (*read_record)(), bool json) {
    SignalRelay relay;
    relay.target(child);
    const sigset_t relayed = relayed_signals();  // blocked by the caller across the fork
    ::sigprocmask(SIG_UNBLOCK, &relayed, nullptr);
    Ending ending;
    for (;;) {
        if (::waitpid(child, &ending.status, WUNTRACED) < 0) {
            if (errno == EINTR) continue;
            const std::string why = std::strerror(errno);
            ::kill(child, SIGKILL);
            end_with(
                {"internal",
                 "famspec lost its work process (" + why + "), so how it ended is unknown; famspec stops with status 1",
                 1, 0},
                json);
        }
        if (!WIFSTOPPED(ending.status)) break;
        if (still_stopped(child)) {
            ending.stopped_by = WSTOPSIG(ending.status);
            ::kill(child, SIGKILL);
        }
    }
    ending.relayed_signal = relay.relayed();
    end_with(judge(read_record(), ending), json);
}

}  // namespace famspec::cli
