// Plugins that misbehave while they are loaded in ways only a careful host notices: they exit (past
// any exit handler, too), crash, stop, print on stdout, forge or close verify's report, leave a
// process behind, take or replace famspec's descriptors (stdin, the answer's), or fork and return
// into famspec twice. One behaviour per fixture (ZOO_* macros), built with zoo_family.cpp, which
// declares the family. A plugin is data and runs no code of its own once loaded, so every behaviour
// runs from a static initialiser, while the library is being opened (the fixtures' names keep the
// stage they were first written for).
// Each carries a template manifest, so no build step runs its code; only famspec verify (in a child
// process) or a CLI test that expects famspec to stop may load them.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

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

#if defined(ZOO_CLOSES_FDS_OPENS_FILE) || defined(ZOO_NULL_ONTO_FDS)
// Every descriptor from 3 up, whatever famspec keeps there, is closed or made /dev/null.
void clobber_descriptors_from_3() {
    const int top = static_cast<int>(sysconf(_SC_OPEN_MAX));
#if defined(ZOO_NULL_ONTO_FDS)
    const int null = open("/dev/null", O_RDWR);
    for (int fd = 3; fd < top && fd < 1024; ++fd) {
        if (fd != null && fcntl(fd, F_GETFD) >= 0) dup2(null, fd);
    }
#else
    for (int fd = 3; fd < top && fd < 1024; ++fd) close(fd);
    // The lowest free descriptor: the number famspec's answer had, if it was one of them.
    if (const char* file = std::getenv("FAMSPEC_TEST_OPENED_FILE")) open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
#endif
}
#endif

#if defined(ZOO_FORKS_AND_RETURNS)
// Forks, and both processes go on into famspec; the copy's pid goes to the file the test names.
void fork_and_return_twice() {
    const pid_t pid = fork();
    if (pid != 0) return;
    if (const char* file = std::getenv("FAMSPEC_TEST_GRANDCHILD_PIDFILE")) std::ofstream(file) << getpid() << "\n";
}
#endif

// Everything the register function of ABI 3.0 did, in the same order, now while the library opens.
[[maybe_unused]] const int misbehave_on_open = [] {
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
#if defined(ZOO_CLOSES_STDIN)
    close(0);
#endif
#if defined(ZOO_READS_STDIN)
    // All of it, raw and through stdio: a `resolve --batch` would have no query left.
    char buffer[4096];
    while (read(0, buffer, sizeof buffer) > 0) {
    }
    while (std::getchar() != EOF) {
    }
#endif
#if defined(ZOO_NULL_ONTO_STDIN)
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    close(null);
#endif
#if defined(ZOO_CLOSES_FDS_OPENS_FILE) || defined(ZOO_NULL_ONTO_FDS)
    clobber_descriptors_from_3();
#endif
#if defined(ZOO_FORKS_AND_RETURNS)
    fork_and_return_twice();
#endif
    return 0;
}();

}  // namespace
