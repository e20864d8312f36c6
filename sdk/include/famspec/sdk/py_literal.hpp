// A Python literal value: what a constructor default or a static plan option can be rendered as.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace famspec {

struct PyNone {
    friend bool operator==(PyNone, PyNone) { return true; }
};
inline constexpr PyNone none{};

class PyLiteral {
public:
    using Value = std::variant<PyNone, bool, std::int64_t, double, std::string>;

    PyLiteral() = default;
    PyLiteral(PyNone) {}                                          // NOLINT(google-explicit-constructor)
    PyLiteral(bool value) : value_(value) {}                      // NOLINT(google-explicit-constructor)
    PyLiteral(int value) : value_(std::int64_t{value}) {}         // NOLINT(google-explicit-constructor)
    PyLiteral(std::int64_t value) : value_(value) {}              // NOLINT(google-explicit-constructor)
    PyLiteral(double value) : value_(value) {}                    // NOLINT(google-explicit-constructor)
    PyLiteral(const char* value) : value_(std::string(value)) {}  // NOLINT(google-explicit-constructor)
    PyLiteral(std::string value) : value_(std::move(value)) {}    // NOLINT(google-explicit-constructor)

    const Value& value() const { return value_; }
    bool is_none() const { return std::holds_alternative<PyNone>(value_); }
    friend bool operator==(const PyLiteral&, const PyLiteral&) = default;

private:
    Value value_;
};

// A parameter default: absent (required), a literal, or a Python expression that is not a literal
// (a function, an object). Only literals can ever be rendered into generated source.
class Default {
public:
    enum class Kind { required, literal, expression };

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
