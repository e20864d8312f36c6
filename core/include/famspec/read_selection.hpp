// A selective load: the plugins whose declarations (rows) a plan or one request needs, and the load
// that copies only those (docs/architecture.md, "What a command reads"). A host answering one plan
// calls `load_plugins(options, read_selection(plan, model_type))` instead of `load_plugins(options)`.
//
// Every plugin still passes find, trust, manifest and compatibility, its claims are read, and a claim
// two plugins share is refused. Only the plugins whose claims meet the selection (and the plugins
// registering the components their factories construct) have their rows copied; each record says
// whether its were (PluginRecord::rows_read). When anything read is refused at stage register or
// validate, a shared claim anywhere included, the load copies every plugin's rows, so that it refuses
// as a full load. A plugin it does not touch is not checked past its claims: `famspec verify` is the
// pre-flight of a plugin directory.
//
// An answer that is resolved (or native) is built only from declarations of plugins the load read.
// One that is not covered may draw on every plugin (the nearest registered names, the family that
// owns a target), as may the message for a family no plugin registers: the famspec command then
// loads every plugin and answers again, and a host that reports such reasons does the same.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/plan.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

struct ReadSelection {
    std::vector<std::string> families;  // spellings a family may be looked up by (model_type, architecture, directory)
    std::vector<std::string> targets;   // target paths of any slot, components named directly included
};

// Every spelling the plan's family may come from (the caller's model_type, the plan's model_type and
// architecture, model._target_'s directory) and each target's directory, and every target of the plan.
FAMSPEC_API ReadSelection read_selection(const Plan& plan, const std::optional<std::string>& model_type);

// One target asked under `model_type` (or the family its path names), added to `selection`.
FAMSPEC_API void add_to_selection(ReadSelection& selection, std::string_view target,
                                  const std::optional<std::string>& model_type);

// load_plugins (famspec/plugin_loader.hpp), copying the rows of the plugins `read` touches only.
FAMSPEC_API std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const ReadSelection& read);

}  // namespace famspec
