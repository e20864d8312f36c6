// Stages trust, manifest and compatibility: everything known about a plugin without mapping it.
#pragma once

#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

inline void announce(const StageCallback& on_stage, const Candidate& candidate, PluginStage stage) {
    if (on_stage) on_stage(candidate.path.string(), stage);
}

// Stage manifest: the embedded manifest, parsed; nullopt when there is none and none is required.
std::optional<PluginError> read_manifest(const Candidate& candidate, bool require_manifest,
                                         std::shared_ptr<const PluginManifest>& manifest);

// Stages trust, manifest and compatibility, in order; `manifest` is set once it is read.
std::optional<PluginError> check_before_open(const Candidate& candidate, const LoadOptions& options,
                                             std::shared_ptr<const PluginManifest>& manifest,
                                             const StageCallback& on_stage = {});

}  // namespace famspec::detail
