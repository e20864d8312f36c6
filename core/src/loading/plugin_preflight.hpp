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

// Stage manifest: the embedded manifest, parsed; null when there is none and none is required.
Expected<std::shared_ptr<const PluginManifest>, PluginError> read_manifest(const Candidate& candidate,
                                                                           bool require_manifest);

// What stages trust, manifest and compatibility leave in a plugin's record: its manifest once it is
// read (a file refused for its compatibility keeps it), and the refusal, if there is one.
struct Preflight {
    std::shared_ptr<const PluginManifest> manifest;
    std::optional<PluginError> error;
    std::vector<std::string> notes;  // PluginRecord::notes, once the plugin is found compatible
};

// What a compatible plugin's fingerprint says that differs from the core's without changing the ABI,
// one sentence each (PluginRecord::notes).
std::vector<std::string> compatibility_notes(const PluginManifest& m);

// Stages trust, manifest and compatibility, in order.
Preflight check_before_open(const Candidate& candidate, const LoadOptions& options, const StageCallback& on_stage = {});

}  // namespace famspec::detail
