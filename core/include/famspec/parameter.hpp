// One parameter of a Python callable signature: a component constructor, a factory, a strategy option.
// The registry's copy of a plugin's parameter row (tables::Parameter is what an author writes).
#pragma once

#include <string>
#include <vector>

#include "famspec/default_value.hpp"
#include "famspec/sdk/parameter_kind.hpp"

namespace famspec {

struct Parameter {
    std::string name;
    ParameterKind kind = ParameterKind::positional_or_keyword;
    Default default_value = Default::required();
    // The values a Python `Literal[...]` type allows, in declared order; empty: any value of the
    // default's kind. A plan's option outside them is reported with these values.
    std::vector<PyLiteral> allowed = {};

    bool accepts_keyword() const { return kind != ParameterKind::positional_only; }
    friend bool operator==(const Parameter&, const Parameter&) = default;
};

}  // namespace famspec
