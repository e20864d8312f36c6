// famspec's standard output and error: written straight to descriptors 1 and 2 so that every
// write error is seen (a closed stdout, a full disk, a reader that went away), with control
// characters escaped in human-readable text.
#pragma once

#include <string>
#include <string_view>

namespace famspec::cli {

// Points std::cout and std::cerr at descriptors 1 and 2 and ignores SIGPIPE, so a reader that
// went away is a write error (EPIPE) instead of a silent death. Call once, first thing in main.
void install_output();

// Whether descriptor 0 was closed when famspec started (it holds /dev/null now, read as no input).
bool stdin_was_closed();

// Escape control characters on stdout from now on (human-readable output; JSON is already safe).
void escape_stdout(bool on);

// Writes all of text to fd, retrying after EINTR and short writes. Returns 0, or the errno of the
// write that failed (EIO when a write wrote nothing). Safe where iostreams are not: in a signal's
// aftermath, or in the process that waits for a child.
int write_all(int fd, std::string_view text);

// Flushes both streams. Returns `code`, or 2 after a message on stderr when stdout could not be
// written completely.
int finish_output(int code);

}  // namespace famspec::cli
