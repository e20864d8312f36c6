// The bash completion script and the man page, generated from the CLI11 definitions (make_app) at
// build time, so they cannot drift from what famspec accepts.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>

namespace famspec::cli {

void write_bash_completion(const CLI::App& app, std::ostream& out);
void write_man_page(const CLI::App& app, std::ostream& out);

}  // namespace famspec::cli
