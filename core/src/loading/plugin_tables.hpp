// Stage register, for a plugin that is data: its block of tables is proved to lie in the plugin's
// own read-only memory, checked whole, and copied into the core. No plugin code runs.
#pragma once

#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/sdk/tables.hpp"
#include "loading/loaded_segments.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::detail {

// `memory` was taken after the plugin was opened.
std::optional<PluginError> read_tables(const Candidate& candidate, const PluginDescriptor& descriptor,
                                       const LoadedSegments& memory, StagingRegistrar& registrar);

}  // namespace famspec::detail
