// The famspec command line, defined once with CLI11: main() parses with it, and the bash
// completion and the man page are generated from the same definitions.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit_command.hpp"
#include "context.hpp"
#include "diff_command.hpp"
#include "new_family.hpp"
#include "plan_commands.hpp"
#include "snapshot_command.hpp"
#include "sync_command.hpp"

namespace famspec::cli {

// Everything the command line sets.
struct Invocation {
    Context context;
    std::string family;
    std::string timeout = "10";  // checked after parsing, so the message can quote what was given
    bool long_list = false;
    ResolveFlags request;
    bool batch = false;
    std::string plan;
    std::optional<std::string> plan_model_type;
    bool allow_runtime_only = false;
    bool digest_only = false;
    bool with_snapshot = false;
    bool strict = false;  // check, summary: unread plan keys and every diagnostic fail
    NewFamilyOptions new_family;
    std::string file;
    AuditRequest audit;
    SyncRequest sync;
    SnapshotRequest snapshot;
    DiffRequest diff;
};

std::unique_ptr<CLI::App> make_app(Invocation& invocation);

// Runs the subcommand the parsed app selected.
int dispatch(const CLI::App& app, Invocation& invocation);

}  // namespace famspec::cli
