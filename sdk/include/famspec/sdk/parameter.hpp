// One parameter of a Python callable signature: a component constructor, a factory, a strategy option.
#pragma once

#include <string>
#include <vector>

#include "famspec/sdk/default_value.hpp"

namespace famspec {

enum class ParameterKind { positional_only, positional_or_keyword, keyword_only };

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
