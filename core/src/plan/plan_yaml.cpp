#include "plan/plan_yaml.hpp"

#include <yaml-cpp/exceptions.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <unordered_set>

#include "famspec/plan_option.hpp"

namespace famspec::detail {
namespace {

bool is_plain(const YamlNode& node) { return node.Tag() == "?" || node.Tag().empty(); }

enum class NumberShape { none, integer, decimal };

// The YAML 1.2 core schema's int and float forms, by a linear scan (a regex recurses per character
// and overflows the stack on a long enough scalar).
NumberShape number_shape(std::string_view text) {
    auto digits = [&text](std::size_t& i) {
        const std::size_t start = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
        return i - start;
    };
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t whole = digits(i);
    std::size_t fraction = 0;
    bool decimal = false;
    if (i < text.size() && text[i] == '.') {
        decimal = true;
        ++i;
        fraction = digits(i);
    }
    if (whole == 0 && fraction == 0) return NumberShape::none;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        decimal = true;
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (digits(i) == 0) return NumberShape::none;
    }
    if (i != text.size()) return NumberShape::none;
    return decimal ? NumberShape::decimal : NumberShape::integer;
}

// module.sub.Name: a target path or a class path must be one, and a stray space or quote from a
// damaged file must not pass as part of a name.
bool is_dotted_path(std::string_view text) {
    bool start = true;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '.') {
            if (start) return false;
            start = true;
            continue;
        }
        if (std::isalpha(byte) == 0 && c != '_' && (start || std::isdigit(byte) == 0)) return false;
        start = false;
    }
    return !text.empty() && !start;
}

// Whether a plain scalar reads as a string in the core schema (not null, bool or a number).
bool is_plain_string(std::string_view text) {
    static constexpr std::array<std::string_view, 10> kReserved = {"",     "~",    "null", "Null",  "NULL",
                                                                   "true", "True", "TRUE", "false", "False"};
    return std::find(kReserved.begin(), kReserved.end(), text) == kReserved.end() && text != "FALSE" &&
           number_shape(text) == NumberShape::none;
}

}  // namespace

// YAML leaves a repeated key to the reader; a plan that says a thing twice is refused.
// A hash set: linear in the number of keys, however many a map holds.
void check_unique_keys(const YamlNode& map) {
    std::unordered_set<std::string> seen;
    seen.reserve(map.size());
    for (const auto& item : map) {
        if (!item.first.IsScalar()) fail(item.first, "expected a string key, found " + kind_of(item.first));
        if (!seen.insert(item.first.Scalar()).second) fail(item.first, "duplicate key " + shown(item.first.Scalar()));
    }
}

// The YAML 1.2 core schema for a plain scalar.
PyLiteral scalar_value(const YamlNode& node) {
    const std::string& text = node.Scalar();
    if (!is_plain(node)) return PyLiteral(text);
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return PyLiteral(none);
    if (text == "true" || text == "True" || text == "TRUE") return PyLiteral(true);
    if (text == "false" || text == "False" || text == "FALSE") return PyLiteral(false);
    const NumberShape shape = number_shape(text);
    if (shape == NumberShape::none) return PyLiteral(text);
    // from_chars takes no leading '+'.
    const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
    const char* end = text.data() + text.size();
    if (shape == NumberShape::integer) {
        std::int64_t value = 0;
        const auto result = std::from_chars(begin, end, value);
        if (result.ec == std::errc() && result.ptr == end) return PyLiteral(value);
    } else {
        double value = 0;
        const auto result = std::from_chars(begin, end, value);
        if (result.ec == std::errc() && result.ptr == end) return PyLiteral(value);
    }
    fail(node, "number " + shown(text) + " is out of range");
}

std::string text(const YamlNode& node, std::string_view key) {
    if (!node.IsScalar() || (is_plain(node) && !is_plain_string(node.Scalar()))) {
        fail(node, "'" + std::string(key) + "': expected a string, found " + kind_of(node));
    }
    if (node.Scalar().empty()) fail(node, "'" + std::string(key) + "': expected a non-empty string");
    return node.Scalar();
}

std::string dotted_path(const YamlNode& node, std::string_view key) {
    std::string path = text(node, key);
    if (!is_dotted_path(path)) {
        fail(node, "'" + std::string(key) + "': expected a dotted Python path (module.Name), found " + shown(path));
    }
    return path;
}

// A family spelling has no white space, quotes or control characters: those are damage, such as an
// unterminated quote that the YAML reader accepted at the end of a file.
std::string family_name(const YamlNode& node, std::string_view key) {
    std::string name = text(node, key);
    const bool clean = std::none_of(name.begin(), name.end(), [](unsigned char c) {
        return c <= 0x20 || c == 0x7F || c == '\'' || c == '"' || c == '\\' || c == '`';
    });
    if (!clean) {
        fail(node, "'" + std::string(key) + "': expected a family name without spaces or quotes, found " + shown(name));
    }
    return name;
}

bool boolean(const YamlNode& node, std::string_view key) {
    if (node.IsScalar()) {
        const PyLiteral value = scalar_value(node);
        if (const bool* b = std::get_if<bool>(&value.value())) return *b;
    }
    fail(node, "'" + std::string(key) + "': expected true or false, found " + kind_of(node));
}

std::vector<std::string> text_list(const YamlNode& node, std::string_view key) {
    if (node.IsScalar()) return {text(node, key)};
    if (!node.IsSequence() || node.size() == 0) {
        fail(node,
             "'" + std::string(key) + "': expected a string or a non-empty list of strings, found " + kind_of(node));
    }
    std::vector<std::string> out;
    for (const auto& item : node) out.push_back(text(item, key));
    return out;
}

bool is_identifier(const std::string& name) {
    return !name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) == 0 &&
           std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

// Aliases share nodes, so a small file can stand for an exponential tree: the walk counts every
// node it visits and stops at the budget.
void check_size(const YamlNode& node, std::size_t depth, const PlanLimits& limits, std::size_t& visited) {
    if (++visited > limits.max_nodes) {
        fail(node, "the plan expands to more than " + std::to_string(limits.max_nodes) +
                       " nodes (YAML aliases can multiply a small file)");
    }
    if (depth > limits.max_depth) fail(node, "nesting deeper than " + std::to_string(limits.max_depth) + " levels");
    if (node.IsSequence()) {
        for (const auto& item : node) check_size(item, depth + 1, limits, visited);
    } else if (node.IsMap()) {
        for (const auto& item : node) {
            check_size(item.first, depth + 1, limits, visited);
            check_size(item.second, depth + 1, limits, visited);
        }
    }
}

SourceLocation location_at(std::string_view text, std::size_t offset) {
    const std::size_t line_start = text.rfind('\n', offset);
    const auto line = static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n')) + 1;
    return {line, offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1};
}

std::string invalid_utf8(std::string_view text, std::size_t& offset) {
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::size_t length = lead < 0x80                    ? 1
                             : lead >= 0xC2 && lead <= 0xDF ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
        // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
        const unsigned char low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
        for (std::size_t k = 1; k < length; ++k) {
            const auto byte = i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
            if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) length = 0;
        }
        if (length == 0) {
            static constexpr char kHex[] = "0123456789abcdef";
            offset = i;
            return std::string("not valid UTF-8 (byte 0x") + kHex[lead >> 4] + kHex[lead & 0xF] + ")";
        }
        i += length;
    }
    return {};
}

// Depth first, in file order: the first one found is the one named.
std::optional<std::pair<YamlNode, std::string>> nested_overrides(const YamlNode& node, const std::string& path) {
    if (node.IsSequence()) {
        for (const auto& item : node) {
            if (auto found = nested_overrides(item, path)) return found;
        }
    } else if (node.IsMap()) {
        for (const auto& item : node) {
            const std::string key = item.first.IsScalar() ? item.first.Scalar() : std::string("?");
            if (key == "plan_overrides") return std::pair{item.first, path};
            if (auto found = nested_overrides(item.second, path + "." + key)) return found;
        }
    }
    return std::nullopt;
}

std::string position(const YamlNode& node) {
    const SourceLocation where = at(node);
    return std::to_string(where.line) + ":" + std::to_string(where.column);
}

}  // namespace famspec::detail

namespace famspec {

Expected<std::pair<std::string, PyLiteral>, PlanError> parse_option(std::string_view item) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || !detail::is_identifier(std::string(item.substr(0, eq)))) {
        return unexpected(
            PlanError{"--option",
                      {1, 1},
                      "expected name=value with a Python identifier as the name, found " + detail::shown(item)});
    }
    return parse_option(item.substr(0, eq), item.substr(eq + 1));
}

Expected<std::pair<std::string, PyLiteral>, PlanError> parse_option(std::string_view name_in,
                                                                    std::string_view value_in) {
    const std::string name(name_in);
    // Columns count in `name=value`, as the option is written on the command line.
    const std::size_t eq = name.size();
    const std::string item = name + "=" + std::string(value_in);
    auto error = [&](std::size_t column, std::string message) {
        return unexpected(PlanError{"--option", {1, column}, std::move(message)});
    };
    if (!detail::is_identifier(name)) {
        return error(1, "option name " + detail::shown(name) + " is not a Python identifier");
    }
    // yaml-cpp reads a NUL byte as the end of the scalar: "a\0b" would silently become 'a'.
    if (const std::size_t nul = item.find('\0'); nul != std::string_view::npos) {
        return error(nul + 1, "option " + detail::shown(name) + ": the value contains a NUL byte");
    }
    std::size_t bad = 0;
    if (const std::string why = detail::invalid_utf8(item, bad); !why.empty()) {
        return error(bad + 1, "option " + detail::shown(name) + ": the value is " + why);
    }
    try {
        const std::string value(item.substr(eq + 1));
        const detail::YamlDocument document = detail::load_one_document(value);
        const detail::YamlNode& node = document.root;
        if (node.IsNull() || !node.IsDefined()) return std::pair{name, PyLiteral(none)};
        if (!node.IsScalar()) {
            return error(eq + 2, "option " + detail::shown(name) +
                                     ": expected a scalar (bool, number, string or null), found " +
                                     detail::kind_of(node));
        }
        return std::pair{name, detail::scalar_value(node)};
    } catch (const detail::PlanFailure& failure) {
        return error(eq + 1 + failure.location.column, failure.message);
    } catch (const YAML::Exception& failure) {
        return error(eq + 2, "option " + detail::shown(name) + ": not a valid YAML scalar: " + failure.msg);
    }
}

}  // namespace famspec
