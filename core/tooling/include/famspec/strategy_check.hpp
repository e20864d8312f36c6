// What the core checks in every StrategySpec it builds from a plugin's declarations, before handing it out.
#pragma once

#include <optional>
#include <string>

#include "famspec/specs.hpp"

namespace famspec {

// The invariants of a StrategySpec: target_class and body_template together or not at all, neither
// blank, and method_name a Python identifier. Empty when valid.
std::optional<std::string> validation_error(const StrategySpec& spec);

}  // namespace famspec
