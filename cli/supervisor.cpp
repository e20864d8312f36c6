#include "supervisor.hpp"

#include <unistd.h>

#include <utility>

#include "error_report.hpp"
#include "signal_relay.hpp"

namespace famspec::cli {

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

void end_with(const Verdict& verdict, bool json) {
    if (!verdict.message.empty()) write_error({verdict.kind, verdict.message, {}, {}, {}}, json, 1);
    if (verdict.end_signal != 0) end_like(verdict.end_signal);
    _exit(verdict.exit_code);
}

}  // namespace famspec::cli
