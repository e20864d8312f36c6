// Text from plugins, plans and file names reaches a terminal: control characters in it are shown
// escaped (`\x1b`), never sent raw, so a name cannot move the cursor, recolour or fake a line.
#pragma once

#include <string>
#include <string_view>

namespace famspec::cli {

// Every C0 control character and DEL as \xNN (newlines and tabs too).
std::string escape_control(std::string_view text);

// The same, but keeps '\n' and '\t': for whole blocks of famspec's own output.
std::string escape_control_keep_lines(std::string_view text);

// For bytes famspec did not write itself (what a plugin's child process printed or reported):
// every byte that is not printable ASCII as \xNN, bytes >= 0x80 included, so neither a terminal
// (C1 controls, bidirectional overrides) nor a JSON reader (invalid UTF-8) takes them as meant.
std::string escape_foreign(std::string_view text);

// The same, but keeps '\n' and '\t'.
std::string escape_foreign_keep_lines(std::string_view text);

}  // namespace famspec::cli
