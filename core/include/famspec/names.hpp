// The one table from each enum of the public API to the name the CLI, the JSON and the Python
// binding print, and back. The enums are type-only headers of the first stage (log.hpp,
// moe_vocabulary.hpp, plugin_record.hpp, resolution.hpp, family_source.hpp, search_origin.hpp) and
// the SDK's: this header names none of them, so every stage may include it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

// Defined for Gap, Slot, ResolutionStatus, DiagnosticKind, FamilySource, PluginStage, LogLevel,
// ParameterKind, ArgumentBinding, ConstructionMode, MoeRouter, SharedExperts, ExpertStorage,
// ArchetypeKind (name_of only) and SearchOrigin (SearchPath::Origin).
template <class Enum>
FAMSPEC_API std::string_view name_of(Enum value);
template <class Enum>
FAMSPEC_API std::optional<Enum> from_name(std::string_view name);
// Every name of the enum, in the table's order: the words an error message says are accepted.
template <class Enum>
FAMSPEC_API std::vector<std::string_view> all_names();

}  // namespace famspec
