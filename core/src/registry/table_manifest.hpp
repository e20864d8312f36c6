// A plugin's manifest read from its checked tables: its identity from the header, its claims from the
// rows, copied under the plugin's copy budget. Nothing else of a plugin that is not used is copied.
#pragma once

#include "famspec/plugin_manifest.hpp"
#include "famspec/table_view.hpp"
#include "registry/copy_budget.hpp"

namespace famspec::detail {

// `view` has passed check(). Throws CopyBudgetExceeded.
PluginManifest manifest_of(const tables::TableView& view, CopyBudget& budget);

}  // namespace famspec::detail
