// The work process of a loading command, made the cheap way where that is available (x86-64 Linux):
// clone(CLONE_VM), so the child shares famspec's memory instead of copying it. A fork costs the
// child a page fault on each page it then writes, and it faults in again the code it runs: about
// 0.8 ms of CPU for `summary --digest` (docs/performance.md). The child goes on with the command on
// this stack; the parent moves at once to a stack of its own and only waits. Since it shares its
// memory with the child, the parent runs only the code below until it ends: raw system calls, no
// libc function (which could wait on a lock the dead child held, or resolve a symbol through the
// dynamic loader), no allocation, no errno (which the child uses), no sanitizer instrumentation.
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include "famspec/plugin_record.hpp"
#include "load_watch_state.hpp"

namespace famspec::cli::detail {

// ThreadSanitizer keeps per-thread state that a second process sharing the memory would corrupt.
#if defined(__x86_64__) && defined(__linux__) && !defined(__SANITIZE_THREAD__)
namespace {

#define FAMSPEC_WATCHER __attribute__((noinline, no_sanitize("address", "undefined"), no_stack_protector))

bool json_errors = false;
WatchShared told;
alignas(64) char watcher_stack[32 * 1024];

FAMSPEC_WATCHER long raw(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
    long result = 0;
    register long r10 asm("r10") = d;
    asm volatile("syscall" : "=a"(result) : "0"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return result;
}

[[noreturn]] FAMSPEC_WATCHER void end(long code) {
    for (;;) raw(SYS_exit_group, code);
}

// A message built without libc: bytes appended one at a time (volatile, so no memcpy is emitted).
struct Text {
    char bytes[12 * 1024];
    unsigned long size = 0;
};
Text line;       // for stderr
Text json_line;  // the same message, escaped for JSON
Text whole;      // the JSON object

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
    do {
        digits[n++] = static_cast<char>('0' + number % 10);
        number /= 10;
    } while (number > 0 && n < 24);
    while (n > 0) put(text, digits[--n]);
}

// Text from outside (a plugin's path): control characters escaped, as escape_control and JSON do.
FAMSPEC_WATCHER void put_foreign(Text& text, const volatile char* bytes, unsigned long size, bool json) {
    const char* hex = "0123456789abcdef";
    for (unsigned long i = 0; i < size; ++i) {
        const auto byte = static_cast<unsigned char>(bytes[i]);
        if (byte < 0x20 || byte == 0x7f) {
            put(text, json ? "\\u00" : "\\x");
            put(text, hex[byte >> 4]);
            put(text, hex[byte & 0xf]);
        } else {
            if (json && (byte == '"' || byte == '\\')) put(text, '\\');
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
        if (name.number == signal) return put(text, name.name);
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

// Parts of the message go to both texts.
FAMSPEC_WATCHER void say(const char* literal) {
    put(line, literal);
    put(json_line, literal);
}

FAMSPEC_WATCHER void say_signal(int signal) {
    put_signal(line, signal);
    put_signal(json_line, signal);
}

// `famspec: error: MESSAGE` on stderr, and with --json {"error": {...}} on stdout, as Context::fail.
FAMSPEC_WATCHER void report(const char* kind) {
    Text& error = line;
    put(error, "\n");
    write_text(2, error);
    if (!json_errors) return;
    put(whole, "{\"error\":{\"column\":null,\"file\":null,\"kind\":\"");
    put(whole, kind);
    put(whole, "\",\"line\":null,\"message\":\"");
    for (unsigned long i = 0; i < json_line.size; ++i) put(whole, json_line.bytes[i]);
    put(whole, "\"}}\n");
    write_text(1, whole);
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

// The kernel's sigaction, for rt_sigaction: SIG_IGN and SIG_DFL need no restorer.
struct KernelAction {
    unsigned long handler, flags, restorer, mask;
};

FAMSPEC_WATCHER void set_action(int signal, __sighandler_t handler) {
    const KernelAction action{reinterpret_cast<unsigned long>(handler), 0, 0, 0};
    raw(SYS_rt_sigaction, signal, reinterpret_cast<long>(&action), 0, 8);
}

FAMSPEC_WATCHER void set_mask(unsigned long blocked) {
    raw(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&blocked), 0, 8);
}

// Ends by the child's signal (its default action), so a shell sees what it would have seen.
[[noreturn]] FAMSPEC_WATCHER void end_like(int signal) {
    set_action(signal, SIG_DFL);
    set_mask(0);
    raw(SYS_kill, raw(SYS_getpid), signal);
    end(128 + signal);
}

// The plugin at work when the child ended: named, with its stage; famspec ends with status 1.
[[noreturn]] FAMSPEC_WATCHER void blame_plugin(bool exited, int code, int signal) {
    say("plugin ");
    const unsigned long size = told.path_size < sizeof told.path ? told.path_size : sizeof told.path;
    put_foreign(line, told.path, size, false);
    put_foreign(json_line, told.path, size, true);
    if (exited) {
        say(" ended the process (exit status ");
        put_number(line, code);
        put_number(json_line, code);
        say(")");
    } else {
        say(" killed the process with ");
        say_signal(signal);
    }
    say(" during ");
    say(stage_name(told.stage));
    say(", before famspec finished; famspec stops with status 1");
    report(exited ? "plugin_exit" : "plugin_crash");
    end(1);
}

// The child ended when no plugin was at work.
[[noreturn]] FAMSPEC_WATCHER void ended_unfinished(int state, bool exited, int code, int signal) {
    const char* when = state == kLoaded ? " after its plugins loaded" : " before it loaded plugins";
    if (exited) {
        if (code != 0) end(code);  // famspec's own failure, reported by famspec
        say("famspec ended with status 0");
        say(when);
        say(", before it finished; it stops with status 1");
        report("internal");
        end(1);
    }
    if (signal != SIGINT && signal != SIGPIPE && signal != SIGTERM && signal != SIGHUP) {
        say("famspec was killed by ");
        say_signal(signal);
        say(when);
        say(", before it finished");
        report("crash");
    }
    end_like(signal);
}

// The parent's whole life after the clone, on its own stack.
extern "C" [[noreturn]] FAMSPEC_WATCHER __attribute__((used)) void famspec_watch_child(long child) {
    // The terminal sends SIGINT and SIGQUIT to the child too: its fate decides. SIGTERM and SIGHUP
    // still end this process, and the child with it (PR_SET_PDEATHSIG).
    set_action(SIGINT, SIG_IGN);
    set_action(SIGQUIT, SIG_IGN);
    set_mask(~((1UL << (SIGTERM - 1)) | (1UL << (SIGHUP - 1))));
    int status = 0;
    for (;;) {
        const long waited = raw(SYS_wait4, child, reinterpret_cast<long>(&status), __WALL, 0);
        if (waited == child) break;
        if (waited == -EINTR) continue;
        say("famspec lost its work process");
        report("internal");
        end(1);
    }
    put(line, "famspec: error: ");
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : 0;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const int state = told.state.load();
    if (state == kFinished) {
        if (exited) end(code != 0 ? code : told.code);
        say("famspec was killed by ");
        say_signal(signal);
        say(" after its output was complete");
        report("crash");
        end(told.code != 0 ? told.code : 1);
    }
    if (state == kReported) end(exited && code != 0 ? code : 1);                     // ExitGuard said which plugin
    if (state == kInPlugin && signal != SIGINT) blame_plugin(exited, code, signal);  // SIGINT: the terminal's
    ended_unfinished(state, exited, code, signal);
}

// clone(CLONE_VM | SIGCHLD) with no new stack: the child returns 0 here, on this stack, and goes on;
// the parent switches to watcher_stack before it touches memory, and never returns. Negative: no
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

}  // namespace

WatchShared* start_sharing_memory(bool json) {
    // Valgrind runs no clone() but a thread's or a fork's: under it (callgrind, memcheck) famspec forks.
    if (RUNNING_ON_VALGRIND) return nullptr;
    json_errors = json;
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
    if (child < 0) return nullptr;
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the child dies with the parent
    if (::getppid() != parent) _exit(1);
    return &told;
}
#else
WatchShared* start_sharing_memory(bool) { return nullptr; }
#endif

}  // namespace famspec::cli::detail
