// A plugin's block of tables (ABI 4.0, docs/design/plugin-tables.md) staged as a register function
// stages its declarations: each row becomes an object of the interface it describes, owned by the
// core, and goes through the same Registrar calls, so every check and message stays in one place.
#pragma once

#include "famspec/sdk/table_view.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::detail {

// `view` must have passed check(). A declaration without a `where` is named by its position.
void stage_tables(const tables::TableView& view, StagingRegistrar& registrar);

}  // namespace famspec::detail
