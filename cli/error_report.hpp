// An error as every command reports it, whichever process finds it: `famspec: MESSAGE` on stderr,
// and with --json also {"error": {"column", "file", "kind", "line", "message"}} on stdout, keys
// sorted like all of famspec's JSON. One writer makes that JSON for every path: a command's own
// failure, the process that waits for a command's work process, and the exit guard.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>

namespace famspec::cli {

struct CliError {
    std::string kind;     // usage, plan, input, plugin, unknown_family, not_covered, ...
    std::string message;  // one sentence, without the "famspec: " prefix
    std::optional<std::string> file;
    std::optional<int> line;
    std::optional<int> column;
};

boost::json::object error_json(const CliError& error);

// {"error": {...}} as sorted, compact JSON and a newline.
std::string error_json_line(const CliError& error);

// Without iostreams, for a process that may not use them (an exit handler, a waiting parent):
// `famspec: error: MESSAGE` (control characters escaped) on fd 2 and, with json, the JSON line on
// answer_fd.
void write_error(const CliError& error, bool json, int answer_fd);

}  // namespace famspec::cli
