#include "famspec/plan.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace famspec {
namespace {

// Thrown inside this file only; the parse functions turn it into a PlanError.
struct PlanFailure {
    SourceLocation location;
    std::string message;
};

// A node without a mark (an empty document) is reported at the start of the file.
SourceLocation at(const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null() || mark.line < 0 || mark.column < 0) return {1, 1};
    return {static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

// Quotes a scalar for a message, shortened: an error should not repeat a 10,000-digit number.
std::string shown(std::string_view text) {
    constexpr std::size_t kMost = 60;
    if (text.size() <= kMost) return "'" + std::string(text) + "'";
    return "'" + std::string(text.substr(0, kMost)) + "...' (" + std::to_string(text.size()) + " characters)";
}

std::string kind_of(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Null:
            return "null";
        case YAML::NodeType::Scalar:
            return shown(node.Scalar());
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Map:
            return "a mapping";
        default:
            return "nothing";
    }
}

[[noreturn]] void fail(const YAML::Node& node, std::string message) { throw PlanFailure{at(node), std::move(message)}; }

// YAML leaves a repeated key to the reader; a plan that says a thing twice is refused.
void check_unique_keys(const YAML::Node& map) {
    std::vector<std::string> seen;
    for (const auto& item : map) {
        if (!item.first.IsScalar()) fail(item.first, "expected a string key, found " + kind_of(item.first));
        const std::string key = item.first.Scalar();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(item.first, "duplicate key '" + key + "'");
        seen.push_back(key);
    }
}

bool is_plain(const YAML::Node& node) { return node.Tag() == "?" || node.Tag().empty(); }

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

// The YAML 1.2 core schema for a plain scalar.
PyLiteral scalar_value(const YAML::Node& node) {
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

std::string dotted_path(const YAML::Node& node, std::string_view key);

// Whether a plain scalar reads as a string in the core schema (not null, bool or a number).
bool is_plain_string(std::string_view text) {
    static constexpr std::array<std::string_view, 10> kReserved = {"",     "~",    "null", "Null",  "NULL",
                                                                   "true", "True", "TRUE", "false", "False"};
    return std::find(kReserved.begin(), kReserved.end(), text) == kReserved.end() && text != "FALSE" &&
           number_shape(text) == NumberShape::none;
}

std::string text(const YAML::Node& node, std::string_view key) {
    if (!node.IsScalar() || (is_plain(node) && !is_plain_string(node.Scalar()))) {
        fail(node, "'" + std::string(key) + "': expected a string, found " + kind_of(node));
    }
    if (node.Scalar().empty()) fail(node, "'" + std::string(key) + "': expected a non-empty string");
    return node.Scalar();
}

std::string dotted_path(const YAML::Node& node, std::string_view key) {
    std::string path = text(node, key);
    if (!is_dotted_path(path)) {
        fail(node, "'" + std::string(key) + "': expected a dotted Python path (module.Name), found " + shown(path));
    }
    return path;
}

// A family spelling has no white space, quotes or control characters: those are damage, such as an
// unterminated quote that the YAML reader accepted at the end of a file.
std::string family_name(const YAML::Node& node, std::string_view key) {
    std::string name = text(node, key);
    const bool clean = std::none_of(name.begin(), name.end(), [](unsigned char c) {
        return c <= 0x20 || c == 0x7F || c == '\'' || c == '"' || c == '\\' || c == '`';
    });
    if (!clean) {
        fail(node, "'" + std::string(key) + "': expected a family name without spaces or quotes, found " + shown(name));
    }
    return name;
}

bool boolean(const YAML::Node& node, std::string_view key) {
    if (node.IsScalar()) {
        const PyLiteral value = scalar_value(node);
        if (const bool* b = std::get_if<bool>(&value.value())) return *b;
    }
    fail(node, "'" + std::string(key) + "': expected true or false, found " + kind_of(node));
}

std::vector<std::string> text_list(const YAML::Node& node, std::string_view key) {
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

// A target: a dotted path, or a mapping with `_target_` (or `target`) plus static options.
Target target(const YAML::Node& node, std::string_view key) {
    Target out;
    out.location = at(node);
    if (node.IsMap()) check_unique_keys(node);
    if (node.IsScalar()) {
        out.path = dotted_path(node, key);
        return out;
    }
    if (!node.IsMap()) {
        fail(node,
             "'" + std::string(key) + "': expected a target path or a mapping with _target_, found " + kind_of(node));
    }
    for (const auto& item : node) {
        const std::string name = item.first.Scalar();
        if (name == "_target_" || name == "target") {
            if (!out.path.empty())
                fail(item.first, "'" + std::string(key) + "': give either _target_ or target, not both");
            out.path = dotted_path(item.second, name);
            continue;
        }
        if (!is_identifier(name)) fail(item.first, "option name '" + name + "' is not a Python identifier");
        if (!item.second.IsScalar() && !item.second.IsNull()) {
            fail(item.second, "option '" + name + "': expected a scalar (bool, number, string or null), found " +
                                  kind_of(item.second));
        }
        out.options[name] = item.second.IsNull() ? PyLiteral(none) : scalar_value(item.second);
    }
    if (out.path.empty()) fail(node, "'" + std::string(key) + "': the target has no _target_ path");
    return out;
}

// Walks the tree once before anything else reads it. Aliases share nodes, so a small file can
// stand for an exponential tree: the walk counts every node it visits and stops at the budget.
void check_size(const YAML::Node& node, std::size_t depth, const PlanLimits& limits, std::size_t& visited) {
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

constexpr std::array<std::string_view, 16> kEntryKeys = {
    "match",        "when",          "module_type",   "exact_type",      "replace_module", "local_compute_fn",
    "inner_target", "inner_wrapper", "inner_out_src", "region_dispatch", "params",         "in_src",
    "in_dst",       "out_src",       "out_dst",       "tp_divide_attrs"};

PlanEntry entry(const YAML::Node& node) {
    if (!node.IsMap()) fail(node, "plan_overrides entry: expected a mapping, found " + kind_of(node));
    check_unique_keys(node);
    PlanEntry out;
    out.location = at(node);
    std::optional<YAML::Node> match;  // a handle, not a pointer: iteration yields temporaries
    for (const auto& item : node) {
        const std::string key = item.first.Scalar();
        const YAML::Node& value = item.second;
        if (std::find(kEntryKeys.begin(), kEntryKeys.end(), key) == kEntryKeys.end()) {
            std::string known;
            for (const auto k : kEntryKeys) known += (known.empty() ? "" : ", ") + std::string(k);
            fail(item.first, "unknown key '" + key + "' in a plan_overrides entry; expected one of " + known);
        }
        if (key == "match") {
            out.match = text_list(value, key);
            match = item.second;
        } else if (key == "when") {
            out.when = text(value, key);
        } else if (key == "module_type") {
            out.module_type = dotted_path(value, key);
        } else if (key == "exact_type") {
            out.exact_type = boolean(value, key);
        } else if (key == "region_dispatch") {
            boolean(value, key);
        } else if (key == "replace_module") {
            out.replace_module = target(value, key);
            out.replace_module->location = at(item.first);  // where the slot is written
        } else if (key == "local_compute_fn") {
            out.local_compute_fn = target(value, key);
            out.local_compute_fn->location = at(item.first);  // where the slot is written
        } else if (key == "inner_wrapper") {
            out.inner_wrapper = target(value, key);
            out.inner_wrapper->location = at(item.first);  // where the slot is written
        } else if (key == "inner_target" || key == "inner_out_src") {
            const std::string t = text(value, key);
            if (key == "inner_target") out.inner_target = t;
        } else if (key == "tp_divide_attrs") {
            text_list(value, key);
        }
        // params, in_src, in_dst, out_src, out_dst: placement contracts, not read by resolution.
    }
    if (out.match.empty()) fail(node, "plan_overrides entry: expected a 'match' key");
    if (out.replace_module) {
        if (!out.module_type) {
            fail(node, "an entry with replace_module needs module_type (the dotted source class it replaces)");
        }
        if (out.when && *out.when != "low_precision") {
            fail(node, "replace_module only allows when: low_precision, found when: " + *out.when);
        }
    }
    if (match && match->IsSequence() && (out.local_compute_fn || out.inner_wrapper)) {
        fail(*match, "a list of match patterns is allowed only on replacement-only entries");
    }
    return out;
}

Plan parse_root(const YAML::Node& root, const std::string& file, const PlanLimits& limits) {
    if (!root.IsDefined() || root.IsNull())
        fail(root, "the plan is empty; expected a mapping with a plan_overrides list");
    if (!root.IsMap()) fail(root, "expected a mapping with a plan_overrides list, found " + kind_of(root));
    std::size_t visited = 0;
    check_size(root, 1, limits, visited);
    check_unique_keys(root);
    Plan plan;
    plan.file = file;
    bool has_overrides = false;
    for (const auto& item : root) {
        const std::string key = item.first.Scalar();
        if (key == "plan_overrides") {
            has_overrides = true;
            if (item.second.IsNull()) continue;
            if (!item.second.IsSequence())
                fail(item.second, "'plan_overrides': expected a list, found " + kind_of(item.second));
            if (item.second.size() > limits.max_entries) {
                fail(item.second, "plan_overrides has " + std::to_string(item.second.size()) +
                                      " entries; the limit is " + std::to_string(limits.max_entries));
            }
            for (const auto& element : item.second) plan.entries.push_back(entry(element));
        } else if (key == "model_type" || key == "architecture") {
            (key == "model_type" ? plan.model_type : plan.architecture) = family_name(item.second, key);
        } else if (key == "codegen") {
            boolean(item.second, key);
        } else {
            fail(item.first,
                 "unknown top-level key '" + key + "'; expected plan_overrides, model_type, architecture or codegen");
        }
    }
    if (!has_overrides) fail(root, "expected a top-level plan_overrides list");
    return plan;
}

}  // namespace

std::optional<std::string> effective_model_type(const Plan& plan, const std::optional<std::string>& model_type) {
    if (model_type) return model_type;
    if (plan.model_type) return plan.model_type;
    return plan.architecture;
}

std::string PlanError::to_string() const {
    return file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column) + ": " + message;
}

PlanParse parse_plan_text(const std::string& text_in, const std::string& file_name, const PlanLimits& limits) {
    PlanParse result;
    if (text_in.size() > limits.max_bytes) {
        result.error = PlanError{
            file_name,
            {1, 1},
            "plan is " + std::to_string(text_in.size()) + " bytes; the limit is " + std::to_string(limits.max_bytes)};
        return result;
    }
    // yaml-cpp reads a NUL byte as the end of a scalar or an escape; say what it is instead. A
    // UTF-16 or UTF-32 plan (it starts with a byte-order mark) holds NUL bytes by design.
    const bool wide = text_in.starts_with("\xFE\xFF") || text_in.starts_with("\xFF\xFE") ||
                      text_in.starts_with(std::string_view("\0\0\xFE\xFF", 4));
    if (const std::size_t nul = text_in.find('\0'); nul != std::string::npos && !wide) {
        const std::size_t line_start = text_in.rfind('\n', nul);
        const std::size_t line = static_cast<std::size_t>(std::count(text_in.begin(), text_in.begin() + nul, '\n')) + 1;
        const std::size_t column = nul - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
        result.error = PlanError{file_name, {line, column}, "the plan contains a NUL byte"};
        return result;
    }
    auto location_of = [](const YAML::Mark& mark) {
        return mark.is_null() || mark.line < 0 || mark.column < 0
                   ? SourceLocation{1, 1}
                   : SourceLocation{static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
    };
    try {
        const std::vector<YAML::Node> documents = YAML::LoadAll(text_in);
        if (documents.size() > 1) {
            throw PlanFailure{at(documents[1]),
                              "the plan holds " + std::to_string(documents.size()) + " YAML documents; expected one"};
        }
        result.plan = parse_root(documents.empty() ? YAML::Node() : documents.front(), file_name, limits);
    } catch (const PlanFailure& failure) {
        result.error = PlanError{file_name, failure.location, failure.message};
    } catch (const YAML::DeepRecursion& error) {
        result.error = PlanError{file_name, location_of(error.mark),
                                 "nesting deeper than " + std::to_string(limits.max_depth) + " levels"};
    } catch (const YAML::Exception& error) {
        result.error = PlanError{file_name, location_of(error.mark), "not valid YAML: " + error.msg};
    } catch (const std::exception& error) {
        // A backstop: whatever the YAML reader throws, the caller gets an error, not a terminate.
        result.error = PlanError{file_name, {1, 1}, std::string("cannot read the plan: ") + error.what()};
    }
    return result;
}

PlanParse parse_plan_file(const std::string& path, const PlanLimits& limits) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return {std::nullopt, PlanError{path, {}, "cannot read the plan: " + ec.message()}};
    if (size > limits.max_bytes) {
        return {std::nullopt, PlanError{path,
                                        {1, 1},
                                        "plan is " + std::to_string(size) + " bytes; the limit is " +
                                            std::to_string(limits.max_bytes)}};
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return {std::nullopt, PlanError{path, {}, "cannot open the plan"}};
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parse_plan_text(buffer.str(), path, limits);
}

}  // namespace famspec
