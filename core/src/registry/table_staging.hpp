// A plugin's block of tables (docs/design/plugin-tables.md) made into the core's own declarations:
// each row becomes an object of the interface it describes, owned by the core, and goes through the
// StagingRegistrar, where every check and message is.
#pragma once

#include "famspec/sdk/table_view.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::detail {

// `view` must have passed check(). A declaration without a `where` is named by its position.
void stage_tables(const tables::TableView& view, StagingRegistrar& registrar);

}  // namespace famspec::detail
