// Finds, checks and loads family plugins, and freezes what they register into a Registry.
//
// Stages per candidate: find -> trust -> manifest -> compatibility -> register -> validate. A plugin
// file is data, read from the descriptor it was checked through: it is never handed to the dynamic
// linker and no code in it runs. A failing plugin is reported with its path and stage.
#pragma once

#include <memory>

#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Runs every stage and returns the frozen registry (plugin records included). Thread-safe: one
// process-wide loader mutex serialises loads. Never throws for a bad plugin. Registry::all_ok() is
// false when any directory or candidate failed: a runtime that wants everything checks it.
FAMSPEC_API std::shared_ptr<const Registry> load_plugins(const LoadOptions& options);

}  // namespace famspec
