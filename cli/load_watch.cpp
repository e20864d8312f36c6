#include "load_watch.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>

#include "escape.hpp"
#include "famspec/names.hpp"

namespace famspec::cli {
namespace {

enum State : int { kWorking, kInPlugin, kLoaded, kReported, kFinished };

// What the child tells the parent, in memory both share: written with plain stores (no system call
// per stage), read by the parent only once the child is gone.
struct Shared {
    std::atomic<int> state{kWorking};
    int code = 0;
    int stage = 0;
    std::size_t path_size = 0;
    char path[4000] = {};
};

Shared* shared = nullptr;  // set in the child only
bool started = false;
volatile sig_atomic_t child_pid = 0;

void forward_signal(int signal) {
    if (child_pid > 0) ::kill(child_pid, signal);
}

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

void write_all(int fd, const std::string& text) {
    std::string_view rest(text);
    while (!rest.empty()) {
        const ssize_t n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
}

void report(bool json, const std::string& kind, const std::string& message) {
    write_all(2, "famspec: error: " + escape_control(message) + "\n");
    if (json) {
        const boost::json::object error{
            {"kind", kind}, {"message", message}, {"file", nullptr}, {"line", nullptr}, {"column", nullptr}};
        write_all(1, boost::json::serialize(boost::json::object{{"error", error}}) + "\n");
    }
}

[[noreturn]] void end_like(int signal) {
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal);
    _exit(128 + signal);
}

// The parent's whole life after the fork: wait, then end as the child's fate says.
[[noreturn]] void wait_for(pid_t child, const Shared& told, bool json) {
    child_pid = child;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, nullptr);  // the terminal sends these to the child too; its fate decides
    sigaction(SIGQUIT, &ignore, nullptr);
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    for (const int signal : {SIGTERM, SIGHUP, SIGUSR1, SIGUSR2}) sigaction(signal, &forward, nullptr);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0) {
        if (errno == EINTR) continue;
        report(json, "internal", "famspec lost its work process: " + std::string(std::strerror(errno)));
        _exit(1);
    }
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : 0;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const std::string fate = exited ? "ended the process (exit status " + std::to_string(code) + ")"
                                    : "killed the process with " + signal_name(signal);
    switch (told.state.load()) {
        case kFinished:
            if (exited) _exit(code != 0 ? code : told.code);
            report(json, "crash", "famspec was killed by " + signal_name(signal) + " after its output was complete");
            _exit(told.code != 0 ? told.code : 1);
        case kReported:  // ExitGuard said which plugin called exit()
            _exit(exited && code != 0 ? code : 1);
        case kInPlugin: {
            const std::string path(told.path, std::min(told.path_size, sizeof told.path));
            report(json, exited ? "plugin_exit" : "plugin_crash",
                   "plugin " + path + " " + fate + " during " +
                       std::string(name_of(static_cast<PluginStage>(told.stage))) +
                       ", before famspec finished; famspec stops with status 1");
            _exit(1);
        }
        default:
            break;
    }
    const std::string when = told.state.load() == kLoaded ? "after its plugins loaded" : "before it loaded plugins";
    if (exited) {
        if (code != 0) _exit(code);  // famspec's own failure, reported by famspec
        report(json, "internal",
               "famspec ended with status 0 " + when + ", before it finished; it stops with status 1");
        _exit(1);
    }
    if (signal != SIGINT && signal != SIGPIPE && signal != SIGTERM && signal != SIGHUP) {
        report(json, "crash", "famspec was killed by " + signal_name(signal) + " " + when + ", before it finished");
    }
    end_like(signal);
}

#if defined(__x86_64__) && defined(__linux__)
// The cheap way, where it is available: the child is made with clone(CLONE_VM), sharing this
// process's memory instead of copying it (a fork costs the child a page fault on each page it then
// writes, and re-faults the code it runs: about 0.8 ms of CPU for `summary --digest`). The child
// goes on with the command on this stack; the parent moves at once to a stack of its own and only
// waits. It shares its memory with the child, so until it ends it runs only the code below: raw
// system calls, no libc function (which could wait on a lock the dead child held, or resolve a
// symbol through the dynamic loader), no allocation, no errno (shared with the child).
struct Watch {
    bool json = false;
    Shared told;
};
Watch watch;
alignas(64) char watcher_stack[32 * 1024];

#define FAMSPEC_WATCHER __attribute__((noinline, no_sanitize("address", "undefined"), no_stack_protector))

FAMSPEC_WATCHER long raw(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
    long result = 0;
    register long r10 asm("r10") = d;
    asm volatile("syscall" : "=a"(result) : "0"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return result;
}

// A message built without libc: bytes appended one at a time (volatile, so no memcpy is emitted).
struct Text {
    char bytes[12 * 1024];
    unsigned long size = 0;
};
Text line;
Text json_line;

FAMSPEC_WATCHER void put(Text& text, char c) {
    volatile char* out = text.bytes;
    if (text.size < sizeof text.bytes) out[text.size++] = c;
}
FAMSPEC_WATCHER void put(Text& text, const char* literal) {
    for (const volatile char* c = literal; *c != '\0'; ++c) put(text, *c);
}
FAMSPEC_WATCHER void put_number(Text& text, long number) {
    char digits[24];
    int n = 0;
    if (number < 0) {
        put(text, '-');
        number = -number;
    }
    do {
        digits[n++] = static_cast<char>('0' + number % 10);
        number /= 10;
    } while (number != 0 && n < 24);
    while (n > 0) put(text, digits[--n]);
}
FAMSPEC_WATCHER void put_hex(Text& text, unsigned char byte, bool json) {
    const char* hex = "0123456789abcdef";
    put(text, json ? "\\u00" : "\\x");
    put(text, hex[byte >> 4]);
    put(text, hex[byte & 0xf]);
}
// Text from outside (a plugin's path): control characters escaped, as escape_control and JSON do.
FAMSPEC_WATCHER void put_foreign(Text& text, const volatile char* bytes, unsigned long size, bool json) {
    for (unsigned long i = 0; i < size; ++i) {
        const auto byte = static_cast<unsigned char>(bytes[i]);
        if (byte < 0x20 || byte == 0x7f) {
            put_hex(text, byte, json);
        } else if (json && (byte == '"' || byte == '\\')) {
            put(text, '\\');
            put(text, static_cast<char>(byte));
        } else {
            put(text, static_cast<char>(byte));
        }
    }
}
FAMSPEC_WATCHER void put_signal(Text& text, int signal) {
    struct Name {
        int number;
        const char* name;
    };
    static const Name names[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGABRT, "SIGABRT"}, {SIGILL, "SIGILL"},
                                 {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
                                 {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGPIPE, "SIGPIPE"}, {SIGSYS, "SIGSYS"},
                                 {SIGTRAP, "SIGTRAP"}, {SIGALRM, "SIGALRM"}, {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
                                 {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
    for (const Name& name : names) {
        if (name.number == signal) {
            put(text, name.name);
            return;
        }
    }
    put(text, "signal ");
    put_number(text, signal);
}
FAMSPEC_WATCHER void write_text(int fd, const Text& text) {
    unsigned long done = 0;
    while (done < text.size) {
        const long n =
            raw(SYS_write, fd, reinterpret_cast<long>(text.bytes + done), static_cast<long>(text.size - done));
        if (n == -EINTR) continue;
        if (n <= 0) return;
        done += static_cast<unsigned long>(n);
    }
}
[[noreturn]] FAMSPEC_WATCHER void end(long code) {
    for (;;) raw(SYS_exit_group, code);
}

// The message, as `report` prints it: parts are written to both texts, the JSON one escaped.
FAMSPEC_WATCHER void say(const char* literal) {
    put(line, literal);
    put(json_line, literal);
}
FAMSPEC_WATCHER void say_number(long number) {
    put_number(line, number);
    put_number(json_line, number);
}
FAMSPEC_WATCHER void say_signal(int signal) {
    put_signal(line, signal);
    put_signal(json_line, signal);
}
[[noreturn]] FAMSPEC_WATCHER void report_and_end(const char* kind, long code) {
    put(line, "\n");
    write_text(2, line);
    if (watch.json) {
        Text& json = json_line;
        put(json, "\"}}\n");
        Text whole;
        put(whole, "{\"error\":{\"kind\":\"");
        put(whole, kind);
        put(whole, "\",\"file\":null,\"line\":null,\"column\":null,\"message\":\"");
        for (unsigned long i = 0; i < json.size; ++i) put(whole, json.bytes[i]);
        write_text(1, whole);
    }
    end(code);
}
FAMSPEC_WATCHER const char* stage_name(int stage) {
    switch (static_cast<PluginStage>(stage)) {
        case PluginStage::open:
            return "open";
        case PluginStage::entry:
            return "entry";
        case PluginStage::handshake:
            return "handshake";
        case PluginStage::register_:
            return "register";
        case PluginStage::validate:
            return "validate";
        default:
            return "loading";
    }
}

// The parent's whole life after the clone, on its own stack.
extern "C" [[noreturn]] FAMSPEC_WATCHER __attribute__((used)) void famspec_watch_child(long child) {
    // The terminal sends SIGINT and SIGQUIT to the child too; its fate decides. SIG_IGN needs no
    // restorer. SIGTERM and SIGHUP keep ending the parent, and the child with it (PR_SET_PDEATHSIG).
    struct {
        unsigned long handler, flags, restorer, mask;
    } ignore{reinterpret_cast<unsigned long>(SIG_IGN), 0, 0, 0};
    raw(SYS_rt_sigaction, SIGINT, reinterpret_cast<long>(&ignore), 0, 8);
    raw(SYS_rt_sigaction, SIGQUIT, reinterpret_cast<long>(&ignore), 0, 8);
    unsigned long unblocked = ~((1UL << (SIGTERM - 1)) | (1UL << (SIGHUP - 1)));
    raw(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&unblocked), 0, 8);
    int status = 0;
    for (;;) {
        const long waited = raw(SYS_wait4, child, reinterpret_cast<long>(&status), __WALL, 0);
        if (waited == child) break;
        if (waited != -EINTR) {
            put(line, "famspec: error: famspec lost its work process");
            report_and_end("internal", 1);
        }
    }
    const volatile Shared& told = watch.told;
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : 0;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const int state = const_cast<const Shared&>(told).state.load();
    if (state == kFinished) {
        if (exited) end(code != 0 ? code : told.code);
        put(line, "famspec: error: ");
        say("famspec was killed by ");
        say_signal(signal);
        say(" after its output was complete");
        report_and_end("crash", told.code != 0 ? told.code : 1);
    }
    if (state == kReported) end(exited && code != 0 ? code : 1);
    put(line, "famspec: error: ");
    if (state == kInPlugin) {
        say("plugin ");
        const unsigned long size = told.path_size < sizeof told.path ? told.path_size : sizeof told.path;
        put_foreign(line, told.path, size, false);
        put_foreign(json_line, told.path, size, true);
        if (exited) {
            say(" ended the process (exit status ");
            say_number(code);
            say(")");
        } else {
            say(" killed the process with ");
            say_signal(signal);
        }
        say(" during ");
        say(stage_name(told.stage));
        say(", before famspec finished; famspec stops with status 1");
        report_and_end(exited ? "plugin_exit" : "plugin_crash", 1);
    }
    const char* when = state == kLoaded ? " after its plugins loaded" : " before it loaded plugins";
    if (exited) {
        if (code != 0) end(code);  // famspec's own failure, reported by famspec
        say("famspec ended with status 0");
        say(when);
        say(", before it finished; it stops with status 1");
        report_and_end("internal", 1);
    }
    if (signal != SIGINT && signal != SIGPIPE && signal != SIGTERM && signal != SIGHUP) {
        say("famspec was killed by ");
        say_signal(signal);
        say(when);
        say(", before it finished");
        put(line, "\n");
        write_text(2, line);
        if (watch.json) {
            put(json_line, "\"}}\n");
            Text whole;
            put(whole, "{\"error\":{\"kind\":\"crash\",\"file\":null,\"line\":null,\"column\":null,\"message\":\"");
            for (unsigned long i = 0; i < json_line.size; ++i) put(whole, json_line.bytes[i]);
            write_text(1, whole);
        }
    }
    // Ends the same way, by the same signal (its default action), so a shell sees what it would have.
    struct {
        unsigned long handler, flags, restorer, mask;
    } by_default{reinterpret_cast<unsigned long>(SIG_DFL), 0, 0, 0};
    raw(SYS_rt_sigaction, signal, reinterpret_cast<long>(&by_default), 0, 8);
    unsigned long none = 0;
    raw(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&none), 0, 8);
    raw(SYS_kill, raw(SYS_getpid), signal);
    end(128 + signal);
}

// clone(CLONE_VM | SIGCHLD) with no new stack: the child returns 0 here, on this stack, and goes on;
// the parent switches to watcher_stack before it touches memory and never returns. Negative: no
// child was made.
__attribute__((noinline)) long clone_sharing_memory() {
    char* const top = watcher_stack + sizeof watcher_stack;
    long result = SYS_clone;
    asm volatile(
        "syscall\n\t"
        "testq %%rax, %%rax\n\t"
        "jle 1f\n\t"
        "movq %[top], %%rsp\n\t"
        "movq %%rax, %%rdi\n\t"
        "call famspec_watch_child\n\t"
        "ud2\n\t"
        "1:\n\t"
        : "+a"(result)
        : "D"(static_cast<long>(CLONE_VM | SIGCHLD)), "S"(0L), "d"(0L), [top] "r"(top)
        : "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
    return result;
}

// Returns true in the child (or false when no child could be made); the parent never returns.
bool start_sharing_memory(bool json) {
    watch.json = json;
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // No signal may be handled between the clone and the parent's move to its own stack.
    sigset_t all;
    sigset_t before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    const pid_t parent = ::getpid();
    const long child = clone_sharing_memory();
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    if (child < 0) return false;
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    shared = &watch.told;
    return true;
}
#endif

}  // namespace

void start_watched_work(bool json) {
    if (started) return;
    started = true;
#if defined(__x86_64__) && defined(__linux__)
    if (start_sharing_memory(json)) return;
#endif
    void* memory = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;  // the work goes on here, guarded by ExitGuard only
    auto* told = new (memory) Shared;
    // Nothing buffered may be written twice, by both processes.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        ::munmap(memory, sizeof(Shared));
        return;
    }
    if (child > 0) wait_for(child, *told, json);
    // The child dies with its parent, so no work outlives a killed famspec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);
    shared = told;
}

void watch_entering(const std::string& path, PluginStage stage) {
    if (shared == nullptr) return;
    if (stage < PluginStage::open) return;  // the loader's own checks: no plugin code runs yet
    shared->path_size = std::min(path.size(), sizeof shared->path);
    std::memcpy(shared->path, path.data(), shared->path_size);
    shared->stage = static_cast<int>(stage);
    shared->state.store(kInPlugin);
}

void watch_loaded() {
    if (shared != nullptr && shared->state.load() <= kInPlugin) shared->state.store(kLoaded);
}

void watch_reported() {
    if (shared != nullptr) shared->state.store(kReported);
}

int watch_finished(int code) {
    if (shared != nullptr) {
        shared->code = code;
        shared->state.store(kFinished);
    }
    return code;
}

}  // namespace famspec::cli
