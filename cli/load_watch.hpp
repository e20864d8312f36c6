// A plugin's code runs inside famspec while it loads, and may end the process: `_exit(0)`, a crash,
// `kill(getpid(), SIGKILL)`. No in-process guard survives that, and the shell would see the plugin's
// status (often 0) for famspec's. So the first time a command is about to load plugins, famspec
// forks: the child does the command's work, as it would have, and records how far it got; the
// parent only waits (supervisor.hpp), relaying signals to it. The parent exits with the child's
// status when the child said it finished (after its last flush); otherwise it reports the child's
// fate, naming the plugin and the stage that was running, and exits 1, or ends by the signal that
// interrupted it. famspec therefore never exits 0 unless the command finished.
//
// Nor can a plugin take or divert famspec's input and answer: while plugins load, the child's stdin
// is /dev/null and its stdout is stderr; famspec's stdin and stdout wait in a socket it reads only
// once loading is over, and only if that socket is still the one famspec made. A plugin that
// closed or replaced it is named, and famspec stops with status 1. A copy of the child that a
// plugin forked (both returning into famspec) stops at its first step, so each answer is given once.
//
// Commands that run no plugin code in-process (list, info, verify, diff, new-family...) make none.
#pragma once

#include <string>

#include "famspec/plugin_record.hpp"

namespace famspec::cli {

// Makes the child on the first call (later calls do nothing). The parent never returns: it waits
// for the child and ends the process with the child's fate. The child, and this process when no
// child could be made, returns: true in the child, whose stdin and answer descriptor arrive with
// watch_loaded. With json, the parent's own error is also printed as JSON on stdout.
bool start_watched_work(bool json);

// Plugin code of `path` at `stage` may run next (for the parent's message).
void watch_entering(const std::string& path, PluginStage stage);

// Loading is over: an ending after this is famspec's work, not a plugin's load. The child takes
// its stdin and answer descriptor here (std::cin and std::cout read and write them from now on).
void watch_loaded();

// The child's exit() was reported already (ExitGuard): the parent adds nothing and exits 1.
void watch_reported();

// The child ends with status 1, for the parent to say `message` (with --json also on stdout).
void watch_said(const std::string& kind, const std::string& message);

// The work is done and its output flushed: famspec's status is `code`. Returns `code`.
int watch_finished(int code);

}  // namespace famspec::cli
