// What the wheel's files take from glibc newer than manylinux_2_28's 2.28 (cmake/FamspecWheel.cmake),
// defined in each file, hidden: the names GCC 12's libstdc++.a refers to (built against Debian 12's
// glibc 2.36) and Debian 11's glibc 2.31 lacks, and the functions the sources call that came after
// 2.28, each taken from the running glibc when it has it.
#include "famspec_wheel_glibc.h"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/random.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>

namespace {

// The running glibc's function NAME of version VERSION, or null when it is older.
template <typename Function>
Function* newer_glibc(const char* name, const char* version) {
    return reinterpret_cast<Function*>(::dlvsym(RTLD_DEFAULT, name, version));
}

}  // namespace

extern "C" {

// Since glibc 2.32, true while the process has one thread, so that libstdc++ may skip atomic
// operations. Always false here: libstdc++ always uses them, which is correct with any number of
// threads.
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables,bugprone-reserved-identifier)
__attribute__((visibility("hidden"))) char __libc_single_threaded = 0;

// Since glibc 2.36 (std::random_device's "arc4random" source): the kernel's random bytes, as
// getrandom (glibc 2.25, Linux 3.17) gives them. Like glibc's, it cannot fail: it aborts instead.
__attribute__((visibility("hidden"))) std::uint32_t arc4random() {
    std::uint32_t value = 0;
    for (;;) {
        const ssize_t got = getrandom(&value, sizeof value, 0);
        if (got == static_cast<ssize_t>(sizeof value)) return value;
        if (got < 0 && errno != EINTR) std::abort();
    }
}

// Since glibc 2.32. Before, the same abbreviations (Linux x86-64's numbering; null for 0, a real-time
// signal or an invalid number, as glibc's).
__attribute__((visibility("hidden"))) const char* sigabbrev_np(int signal) {
    if (auto* glibc = newer_glibc<const char*(int)>("sigabbrev_np", "GLIBC_2.32")) return glibc(signal);
    static constexpr std::array<const char*, 32> kNames{
        nullptr, "HUP",  "INT",  "QUIT", "ILL",    "TRAP",   "ABRT",  "BUS",  "FPE",  "KILL", "USR1",
        "SEGV",  "USR2", "PIPE", "ALRM", "TERM",   "STKFLT", "CHLD",  "CONT", "STOP", "TSTP", "TTIN",
        "TTOU",  "URG",  "XCPU", "XFSZ", "VTALRM", "PROF",   "WINCH", "IO",   "PWR",  "SYS"};
    return signal >= 0 && signal < static_cast<int>(kNames.size()) ? kNames[signal] : nullptr;
}

// Since glibc 2.29. Before, a child cannot be started in another directory by posix_spawn: ENOSYS,
// which posix_spawn then reports.
__attribute__((visibility("hidden"))) int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t* actions,
                                                                               const char* path) {
    using Function = int(posix_spawn_file_actions_t*, const char*);
    if (auto* glibc = newer_glibc<Function>("posix_spawn_file_actions_addchdir_np", "GLIBC_2.29"))
        return glibc(actions, path);
    return ENOSYS;
}
}
