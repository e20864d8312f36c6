// The one table from each enum of the public API to the name the CLI, the JSON and the Python
// binding print, and back.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "famspec/log.hpp"
#include "famspec/moe_vocabulary.hpp"
#include "famspec/plan.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/resolution.hpp"
#include "famspec/resolver.hpp"
#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/sdk/parameter.hpp"
#include "famspec/search_path.hpp"

namespace famspec {

// Defined for Gap, Slot, ResolutionStatus, DiagnosticKind, FamilySource, PluginStage, LogLevel,
// ParameterKind, ArgumentBinding, ConstructionMode, MoeRouter, SharedExperts, ExpertStorage and
// SearchPath::Origin.
template <class Enum>
FAMSPEC_API std::string_view name_of(Enum value);
template <class Enum>
FAMSPEC_API std::optional<Enum> from_name(std::string_view name);
// Every name of the enum, in the table's order: the words an error message says are accepted.
template <class Enum>
FAMSPEC_API std::vector<std::string_view> all_names();

}  // namespace famspec
