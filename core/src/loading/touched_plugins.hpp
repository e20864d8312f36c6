// Which plugins a selective load reads the rows of: decided from their claims, conservatively. A
// plugin is touched when a family it declares answers one of the selection's spellings, or when it
// claims anything (factory, archetype compute factory, CP wrapper, compute function, component) whose
// last name is a target's last name: a factory also answers under its family's provider modules and a
// component under its import module, neither of which a manifest lists, but both keep the last name.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/table_view.hpp"

namespace famspec::detail {

// What a selective load is asked (famspec/read_selection.hpp's ReadSelection, seen from this stage).
struct TouchNames {
    std::span<const std::string> families;  // spellings a family may be looked up by
    std::span<const std::string> targets;   // target paths
};

// load_plugins copying the rows of the plugins `names` touches only (plugin_loader.cpp).
std::shared_ptr<const Registry> load_touched(const LoadOptions& options, const TouchNames& names);

// One plugin whose tables were read: its claims, and its checked block (for its compute functions).
struct ClaimsOf {
    const PluginManifest* manifest;
    const tables::TableView* view;
};

// For each plugin, in order: whether `names` touches it.
std::vector<bool> touched_plugins(const TouchNames& names, std::span<const ClaimsOf> plugins);

// Marks the plugins that register a component of one of `classes` (class names, the last name of a
// component's paths); returns whether it marked one that was not marked before.
bool touch_providers(std::span<const std::string> classes, std::span<const ClaimsOf> plugins,
                     std::vector<bool>& touched);

}  // namespace famspec::detail
