// Plugin tooling for the CLI, the build-time manifest generator and the tests: loading that reports
// each stage, what plugin files declare, read without running them, and the manifest a plugin's
// registration produces. Not part of
// the embedder's API (famspec/famspec.hpp), and not installed: the functions are compiled with the
// loader, whose stages they run, and the installed libfamspec.so does not export them
// (core/installed.map). The famspec command and famspec-manifest link them from the core's archive.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec {

// Called on the loading thread as each candidate enters a stage: verify's child reports it, and the
// CLI's exit guard names the plugin and stage that called exit(). Every candidate goes through trust
// to compatibility, then every one left through open to handshake, then register and validate; a
// candidate's own stages come in that order.
using StageCallback = std::function<void(const std::string& path, PluginStage stage)>;

// Whether a plugin with a factory whose component no loaded plugin registers is refused (stage
// validate). A file probed on its own (verify's child) leaves its links to the set it joins.
enum class ComponentLinks { required, left_to_the_set };

// load_plugins, announcing each stage as a candidate enters it.
std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const StageCallback& on_stage,
                                             ComponentLinks links = ComponentLinks::required);

// Stages find, manifest and compatibility only, plus manifest-level duplicate checks: what the
// files declare, without running any plugin code.
std::vector<PluginRecord> inspect_plugins(const LoadOptions& options);

// inspect_plugins without the duplicate checks: for a caller that decides duplicates itself from what
// actually loads (verify), since a plugin refused at load time claims nothing.
std::vector<PluginRecord> inspect_candidates(const LoadOptions& options);

// Marks every ok record whose manifest claims something another ok record claims too (stage
// validate), both of them. `verify` uses it on the manifests its child processes report.
void mark_conflicts(std::vector<PluginRecord>& records);

// The manifest a plugin's registration produces (for the build-time manifest generator).
// A plugin refused at the handshake (another ABI or build fingerprint) gets a descriptor-only
// manifest together with the error, so that a loader refuses it before dlopen with the same reason.
struct ManifestGeneration {
    std::optional<PluginManifest> manifest;
    std::optional<PluginError> error;
    bool descriptor_only = false;
    std::vector<std::string> notes;  // as PluginRecord::notes, for a plugin that registered
};
ManifestGeneration generate_manifest(const std::filesystem::path& plugin);

}  // namespace famspec
