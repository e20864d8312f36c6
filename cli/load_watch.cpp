#include "load_watch.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "signal_relay.hpp"
#include "supervisor.hpp"

namespace famspec::cli {
namespace {

// What the work process records for the parent, in memory both see: plain stores (no system call
// per stage), read by the parent only once the work process is gone.
struct Shared {
    std::atomic<int> state{static_cast<int>(WorkState::working)};
    int code = 0;
    int stage = 0;  // a PluginStage
    std::size_t path_size = 0;
    char path[4000] = {};
};

Shared* shared = nullptr;  // the work process's record (in the parent too, for read_record)
bool started = false;

void record(WorkState state) { shared->state.store(static_cast<int>(state)); }
WorkState recorded() { return static_cast<WorkState>(shared->state.load()); }

WorkRecord read_record() {
    return {recorded(), shared->code, static_cast<PluginStage>(shared->stage),
            std::string(shared->path, std::min(shared->path_size, sizeof shared->path))};
}

}  // namespace

void start_watched_work(bool json) {
    if (started) return;
    started = true;
    void* memory = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;  // the work goes on here, guarded by ExitGuard only
    auto* told = new (memory) Shared;
    // Nothing buffered may be written twice, by both processes.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    // A signal that arrives before the parent relays it waits, instead of ending the parent alone.
    const sigset_t relayed = relayed_signals();
    sigset_t before;
    ::sigprocmask(SIG_BLOCK, &relayed, &before);
    const pid_t child = ::fork();
    if (child > 0) {
        shared = told;
        supervise_work(child, read_record, json);
    }
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    if (child < 0) {
        ::munmap(memory, sizeof(Shared));
        return;
    }
    shared = told;
    // The child dies with its parent, so no work outlives a killed famspec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
}

void watch_entering(const std::string& path, PluginStage stage) {
    if (shared == nullptr) return;
    if (stage < PluginStage::open) return;  // the loader's own checks: no plugin code runs yet
    shared->path_size = std::min(path.size(), sizeof shared->path);
    std::memcpy(shared->path, path.data(), shared->path_size);
    shared->stage = static_cast<int>(stage);
    record(WorkState::in_plugin);
}

void watch_loaded() {
    if (shared != nullptr && recorded() <= WorkState::in_plugin) record(WorkState::loaded);
}

void watch_reported() {
    if (shared != nullptr) record(WorkState::reported);
}

int watch_finished(int code) {
    if (shared != nullptr) {
        shared->code = code;
        record(WorkState::finished);
    }
    return code;
}

}  // namespace famspec::cli
