// famspec snapshot: the loaded plugin set as canonical JSON with its digest, and --compare against a
// stored one (0 same, 1 differs, each difference listed; 2 a bad file).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "context.hpp"

namespace CLI {
class App;
}

namespace famspec::cli {

struct SnapshotRequest {
    std::optional<std::string> compare;  // a stored snapshot file
};

CLI::App* add_snapshot_command(CLI::App& app, SnapshotRequest& request);

int run_snapshot(const Context& context, const SnapshotRequest& request, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
