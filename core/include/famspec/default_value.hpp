// What a declared parameter defaults to, as the registry holds it.
#pragma once

#include <string>

#include "famspec/py_literal.hpp"
#include "famspec/sdk/parameter_kind.hpp"

namespace famspec {

// A parameter default: absent (required), a literal, or a Python expression that is not a literal
// (a function, an object). Only literals can ever be rendered into generated source.
class Default {
public:
    using Kind = DefaultKind;  // the SDK's word, which a plugin's rows carry

    static Default required() { return Default(Kind::required, {}, {}); }
    static Default literal(PyLiteral value) { return Default(Kind::literal, std::move(value), {}); }
    static Default expression(std::string source) { return Default(Kind::expression, {}, std::move(source)); }

    Kind kind() const { return kind_; }
    const PyLiteral& literal_value() const { return literal_; }
    const std::string& expression_source() const { return expression_; }
    friend bool operator==(const Default&, const Default&) = default;

private:
    Default(Kind kind, PyLiteral literal, std::string expression)
        : kind_(kind), literal_(std::move(literal)), expression_(std::move(expression)) {}

    Kind kind_;
    PyLiteral literal_;
    std::string expression_;
};

}  // namespace famspec
