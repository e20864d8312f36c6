// Plugin tooling for the CLI and the tests: loading that reports each stage, and what plugin files
// declare, read without copying their declarations. Not part of the embedder's API
// (famspec/famspec.hpp), and not installed: the functions are compiled with the loader, whose stages
// they run, and the installed libfamspec.so does not export them. The famspec command links them from
// the core's archive.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec {

// Called on the loading thread as each candidate enters a stage (verify reports the stage a refusal
// came from). Every candidate goes through trust to register, then the cross-plugin checks of stage
// validate; a candidate's own stages come in that order.
using StageCallback = std::function<void(const std::string& path, PluginStage stage)>;

// load_plugins, announcing each stage as a candidate enters it.
std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const StageCallback& on_stage);

// Stages find to register without copying any declaration (each plugin's tables checked and its
// claims read), plus the duplicate checks: what the files declare.
std::vector<PluginRecord> inspect_plugins(const LoadOptions& options);

// inspect_plugins without the duplicate checks.
std::vector<PluginRecord> inspect_candidates(const LoadOptions& options);

// Marks every ok record whose manifest claims something another ok record claims too (stage
// validate), both of them.
void mark_conflicts(std::vector<PluginRecord>& records);

}  // namespace famspec
