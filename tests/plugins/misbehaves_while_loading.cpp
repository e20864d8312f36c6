// Plugins that misbehave while they are loaded in ways only a careful host notices: they exit (past
// any exit handler, too), crash, stop, print on stdout, forge or close verify's report, or leave a
// process behind. One file, one behaviour per fixture (ZOO_* macros).
// Each carries a template manifest, so no build step runs its code; only famspec verify (in a child
// process) or a CLI test that expects famspec to stop may load them.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "famspec/sdk.hpp"

#if !defined(ZOO_NAME) || !defined(ZOO_FAMILY)
#error "define ZOO_NAME and ZOO_FAMILY"
#endif

namespace {

// fd 3 is verify's report channel in its child process.
[[maybe_unused]] void write_report(const char* text) {
    [[maybe_unused]] const auto n = write(3, text, std::strlen(text));
}

#if defined(ZOO_EXIT_IN_STATIC_INIT)
[[maybe_unused]] const int exit_on_load = [] {
    std::exit(0);
    return 0;
}();
#endif

#if defined(ZOO_FORK_GRANDCHILD)
// A grandchild that would hold verify's pipes open for ten minutes; its pid goes to the file the
// test names, so the test can see it was killed.
void leave_a_grandchild() {
    int ready[2];
    if (pipe(ready) != 0) return;
    const pid_t pid = fork();
    if (pid != 0) {
        // Wait until the pid is on record, so the test never races the kill.
        char byte = 0;
        close(ready[1]);
        [[maybe_unused]] const auto n = read(ready[0], &byte, 1);
        close(ready[0]);
        return;
    }
    close(ready[0]);
    if (const char* file = std::getenv("FAMSPEC_TEST_GRANDCHILD_PIDFILE")) std::ofstream(file) << getpid() << "\n";
    close(ready[1]);
    sleep(600);
    _exit(0);
}
#endif

}  // namespace

FAMSPEC_PLUGIN(ZOO_NAME, "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
#if defined(ZOO_FORGE_RESULT)
    write_report("result {\"path\":\"forged\",\"status\":\"ok\"}\n");
#endif
#if defined(ZOO_EXIT_IN_REGISTER)
    std::exit(0);
#endif
#if defined(ZOO_UNDERSCORE_EXIT_IN_REGISTER)
    // What `famspec summary --digest` would print, then an exit that no exit handler sees.
    static const char forged[] = "sha256:0000000000000000000000000000000000000000000000000000000000000000\n";
    [[maybe_unused]] const auto n = write(1, forged, sizeof forged - 1);
    _exit(0);
#endif
#if defined(ZOO_CRASH_IN_REGISTER)
    // Bytes a terminal or a JSON reader must not get raw: a right-to-left override, a C1 CSI, 0xff.
    std::fputs("crash_in_register: about to fault \xe2\x80\xae\x9b\xff\n", stderr);
    std::signal(SIGSEGV, SIG_DFL);  // not a sanitizer's handler, which would exit 1
    std::raise(SIGSEGV);
#endif
#if defined(ZOO_STOPS_IN_REGISTER)
    std::raise(SIGSTOP);  // no one will send SIGCONT: famspec must not wait for it
#endif
#if defined(ZOO_CLOSES_REPORT_FD)
    close(3);
#endif
#if defined(ZOO_PRINTS_WHILE_REGISTERING)
    std::printf("printed by a plugin with printf\n");
    std::fflush(stdout);
    std::cout << "printed by a plugin with std::cout" << std::endl;
#endif
#if defined(ZOO_MALFORMED_REPORT)
    write_report("stage \x1b[2Jregister\n");
#endif
#if defined(ZOO_FORK_GRANDCHILD)
    leave_a_grandchild();
#endif
    famspec::declare::Family family{ZOO_FAMILY, ZOO_FAMILY "ForCausalLM"};
    family.factory("hyper_parallel.models." ZOO_FAMILY ".adapter.replacements.replace_norm")
        .wraps("RMSNorm", "hyper_parallel.components.modules");
    family.register_into(registrar);
}
