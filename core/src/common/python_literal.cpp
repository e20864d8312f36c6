// Python's repr() of the literal kinds a constructor default or a plan option can hold. Generated
// source must read exactly as Python itself would print the value: 1e-05, not 0.00001 or 1e-5.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "famspec/python_text.hpp"

namespace famspec {
namespace {

std::string float_repr(double value) {
    if (std::isnan(value)) return "float('nan')";
    if (std::isinf(value)) return value > 0 ? "float('inf')" : "-float('inf')";
    std::array<char, 64> buffer{};
    // Shortest round-trip digits, as Python's 'r' format uses.
    const auto [end, ec] =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
    std::string text(buffer.data(), ec == std::errc() ? end : buffer.data());
    std::string sign;
    if (!text.empty() && text[0] == '-') {
        sign = "-";
        text.erase(0, 1);
    }
    const std::size_t e = text.find('e');
    std::string digits = text.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exponent = std::stoi(text.substr(e + 1));
    const int point = exponent + 1;  // digits before the decimal point
    const int count = static_cast<int>(digits.size());
    std::string out;
    if (point > -4 && point <= 16) {
        if (point <= 0) {
            out.append("0.").append(static_cast<std::size_t>(-point), '0').append(digits);
        } else if (point >= count) {
            out.append(digits).append(static_cast<std::size_t>(point - count), '0').append(".0");
        } else {
            out.append(digits, 0, static_cast<std::size_t>(point))
                .append(".")
                .append(digits, static_cast<std::size_t>(point));
        }
    } else {
        out.append(digits, 0, 1);
        if (count > 1) out.append(".").append(digits, 1);
        std::array<char, 16> exp{};
        std::snprintf(exp.data(), exp.size(), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += exp.data();
    }
    return sign + out;
}

std::string string_repr(const std::string& value) {
    const bool has_single = value.find('\'') != std::string::npos;
    const bool has_double = value.find('"') != std::string::npos;
    const char quote = has_single && !has_double ? '"' : '\'';
    std::string out(1, quote);
    for (const char c : value) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\')
            out += "\\\\";
        else if (c == quote)
            out += std::string("\\") + quote;
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (byte < 0x20 || byte == 0x7F) {
            std::array<char, 8> escaped{};
            std::snprintf(escaped.data(), escaped.size(), "\\x%02x", byte);
            out += escaped.data();
        } else {
            out += c;
        }
    }
    out += quote;
    return out;
}

}  // namespace

std::string to_python(const PyLiteral& literal) {
    struct Visitor {
        std::string operator()(PyNone) const { return "None"; }
        std::string operator()(bool value) const { return value ? "True" : "False"; }
        std::string operator()(std::int64_t value) const { return std::to_string(value); }
        std::string operator()(double value) const { return float_repr(value); }
        std::string operator()(const std::string& value) const { return string_repr(value); }
    };
    return std::visit(Visitor{}, literal.value());
}

}  // namespace famspec
