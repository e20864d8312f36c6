// What a command's work process tells the process that waits for it (load_watch.hpp), in memory
// both can read: written with plain stores (no system call per stage), read by the waiting process
// only once the work process is gone.
#pragma once

#include <atomic>
#include <cstddef>

namespace famspec::cli::detail {

enum WatchState : int { kWorking, kInPlugin, kLoaded, kReported, kFinished };

struct WatchShared {
    std::atomic<int> state{kWorking};
    int code = 0;
    int stage = 0;  // a PluginStage
    std::size_t path_size = 0;
    char path[4000] = {};
};

// Makes the work process with clone(CLONE_VM), sharing this process's memory, where that is
// available (load_watch_clone.cpp): returns in the child with the block it reports in; the parent
// never returns. nullptr when no such child could be made (the caller then forks).
WatchShared* start_sharing_memory(bool json);

}  // namespace famspec::cli::detail
