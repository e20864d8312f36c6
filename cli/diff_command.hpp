// famspec diff OLD NEW: which targets' specs changed between two canonical summaries, field by field
// (0 same, 1 differs, 2 a bad file).
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace famspec::cli {

struct DiffRequest {
    std::string old_summary;
    std::string new_summary;
};

CLI::App* add_diff_command(CLI::App& app, DiffRequest& request);

int run_diff(const DiffRequest& request, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
