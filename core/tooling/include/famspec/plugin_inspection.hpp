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

// Whether a plugin with a factory whose component no loaded plugin registers is refused (stage
// validate). verify checks the files of a directory that may be only part of a set (a family
// project's build holds its own plugin, not the catalogue), so it leaves links to the set they join.
enum class ComponentLinks { required, left_to_the_set };

// load_plugins, announcing each stage as a candidate enters it.
std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const StageCallback& on_stage,
                                             ComponentLinks links = ComponentLinks::required);

// The records of load_plugins: what each file declares and whether it loads, every check included.
std::vector<PluginRecord> inspect_plugins(const LoadOptions& options);

// Each file on its own, stages find to register (what it declares and whether it reads and checks
// whole), without the checks across plugins: for one file (info).
std::vector<PluginRecord> inspect_candidates(const LoadOptions& options);

// Marks every ok record whose manifest claims something another ok record claims too (stage
// validate), both of them.
void mark_conflicts(std::vector<PluginRecord>& records);

}  // namespace famspec
