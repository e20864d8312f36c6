// What famspec says about a family name no loaded plugin registers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/plan_family.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

class Registry;

// The registered families with a spelling (model_type, architecture, alias or directory alias) close
// to `name`, as nearest_names' close_names ranks them: model types, best first, each once.
FAMSPEC_API std::vector<std::string> family_suggestions(const Registry& registry, std::string_view name);

// "unknown family 'x' (tried <keys>) (did you mean `a`, `b` or `c`?)": the one wording of the CLI
// and the Python package.
FAMSPEC_API std::string unknown_family_message(const Registry& registry, std::string_view name);

}  // namespace famspec
