// A static option given on the command line rather than in a plan.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "famspec/expected.hpp"
#include "famspec/plan.hpp"

namespace famspec {

// One static option written as `name=value` (the CLI's --option): the value is read as a YAML
// scalar, as it would be next to a _target_ in a plan. An error names file "--option".
Expected<std::pair<std::string, PyLiteral>, PlanError> parse_option(std::string_view item);
// The same with the name given apart (a JSON query's key): the name must be a Python identifier, so
// no '=', '#' or space in it can move the boundary between name and value.
Expected<std::pair<std::string, PyLiteral>, PlanError> parse_option(std::string_view name, std::string_view value);

}  // namespace famspec
