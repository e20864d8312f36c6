#include "signal_relay.hpp"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <array>

namespace famspec::cli {
namespace {

constexpr std::array kRelayed{SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};

volatile sig_atomic_t relay_target = 0;
volatile sig_atomic_t last_signal = 0;
std::array<struct sigaction, kRelayed.size()> previous{};

void relay(int signal) {
    last_signal = signal;
    if (relay_target != 0) ::kill(static_cast<pid_t>(relay_target), signal);
}

}  // namespace

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

SignalRelay::SignalRelay() {
    relay_target = 0;
    last_signal = 0;
    struct sigaction action {};
    action.sa_handler = relay;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kRelayed.size(); ++i) {
        ::sigaction(kRelayed[i], &action, &previous[i]);
        // A signal famspec was started ignoring (nohup, a script's background job) stays ignored.
        if (previous[i].sa_handler == SIG_IGN) ::sigaction(kRelayed[i], &previous[i], nullptr);
    }
}

SignalRelay::~SignalRelay() {
    for (std::size_t i = 0; i < kRelayed.size(); ++i) ::sigaction(kRelayed[i], &previous[i], nullptr);
    relay_target = 0;
}

void SignalRelay::target(pid_t target) {
    relay_target = target;
    if (last_signal != 0 && target != 0) ::kill(target, last_signal);
}

int SignalRelay::relayed() const { return last_signal; }

sigset_t relayed_signals() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : kRelayed) sigaddset(&set, signal);
    return set;
}

void end_like(int signal) {
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal);
    _exit(128 + signal);
}

}  // namespace famspec::cli
