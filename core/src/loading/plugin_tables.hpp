// Stage register: a plugin's block of tables, read from its file, is checked whole (every array,
// string, list and kind inside the block; the characters UTF-8), its manifest taken from the rows, and,
// for a plugin the load needs, its declarations copied into the core. Every copy is charged to the
// plugin's CopyBudget. The file is never mapped and nothing in it runs.
#pragma once

#include <memory>
#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/table_view.hpp"
#include "registry/copy_budget.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::detail {

// A plugin whose tables passed check(): a view into the candidate's copy of its section, its
// manifest, and what is left of its copy budget.
struct ReadTables {
    tables::TableView view;
    std::shared_ptr<const PluginManifest> manifest;
    CopyBudget budget;
};

// The candidate passed stage compatibility; the view lives as long as the candidate.
Expected<ReadTables, PluginError> read_tables(const Candidate& candidate);

// Copies the declarations into `registrar`, which checks each.
std::optional<PluginError> stage_declarations(const Candidate& candidate, ReadTables& tables,
                                              StagingRegistrar& registrar);

}  // namespace famspec::detail
