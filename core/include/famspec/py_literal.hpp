// A Python literal value: what a constructor default or a static plan option can be rendered as.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "famspec/sdk/py_none.hpp"

namespace famspec {
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
}  // namespace famspec
