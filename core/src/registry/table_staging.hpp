// A plugin's block of tables (docs/design/plugin-tables.md) made into the core's own declarations:
// each row becomes the plain value of the concept it describes (famspec/registry_entries.hpp), owned
// by the core, and goes through the StagingRegistrar, where every check and message is.
#pragma once

#include "famspec/table_view.hpp"
#include "registry/copy_budget.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::detail {

// `view` must have passed check(). A declaration without a `where` is named by its position. What is
// copied is charged to `budget`: throws CopyBudgetExceeded when it runs out.
void stage_tables(const tables::TableView& view, CopyBudget& budget, StagingRegistrar& registrar);

}  // namespace famspec::detail
