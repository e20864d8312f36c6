// famspec sync: a family's plugin project generated from the runtime's Python source. The generator
// is Python (it reads the source with ast, as the audit does); this command runs it.
#pragma once

#include <iosfwd>
#include <string>

#include "context.hpp"

namespace CLI {
class App;
}

namespace famspec::cli {

struct SyncRequest {
    std::string source_root;
    std::string family;
    std::string out;
    bool check = false;
    bool allow_incomplete = false;
};

CLI::App* add_sync_command(CLI::App& app, SyncRequest& request);

// Runs `python3 -m famspec sync ...` (python_command.hpp); returns its exit code: 0 written or up to
// date, 1 TODOs left (without --allow-incomplete) or --check found a difference, 2 bad input.
int run_sync(const Context& context, const SyncRequest& request, std::ostream& err);

}  // namespace famspec::cli
