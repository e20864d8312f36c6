// Stages trust, manifest and compatibility: whether a plugin file may be read, whether it is one, and
// whether this core reads its tables, before any row of them is trusted.
#pragma once

#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

inline void announce(const StageCallback& on_stage, const Candidate& candidate, PluginStage stage) {
    if (on_stage) on_stage(candidate.path.string(), stage);
}

// Stages trust, manifest and compatibility, in order: the first refusal, or nothing.
std::optional<PluginError> check_before_reading(const Candidate& candidate, const LoadOptions& options,
                                                const StageCallback& on_stage = {});

}  // namespace famspec::detail
