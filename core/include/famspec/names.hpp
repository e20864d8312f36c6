// The one table from each enum of the public API to the name the CLI, the JSON and the Python
// binding print, and back.
#pragma once

#include <optional>
#include <string_view>

#include "famspec/plan.hpp"
#include "famspec/resolution.hpp"
#include "famspec/resolver.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Defined for Gap, Slot, ResolutionStatus, DiagnosticKind and FamilySource.
template <class Enum>
FAMSPEC_API std::string_view name_of(Enum value);
template <class Enum>
FAMSPEC_API std::optional<Enum> from_name(std::string_view name);

}  // namespace famspec
