#include "famspec/plan.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace famspec {
namespace {

// Thrown inside this file only; the parse functions turn it into a PlanError.
struct PlanFailure {
    SourceLocation location;
    std::string message;
};

SourceLocation at(const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    if (mark.is_null()) return {};
    return {static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

std::string kind_of(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Null:
            return "null";
        case YAML::NodeType::Scalar:
            return "'" + node.Scalar() + "'";
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
        const std::string key = item.first.Scalar();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(item.first, "duplicate key '" + key + "'");
        seen.push_back(key);
    }
}

bool is_plain(const YAML::Node& node) { return node.Tag() == "?" || node.Tag().empty(); }

// The YAML 1.2 core schema for a plain scalar.
PyLiteral scalar_value(const YAML::Node& node) {
    const std::string& text = node.Scalar();
    if (!is_plain(node)) return PyLiteral(text);
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return PyLiteral(none);
    if (text == "true" || text == "True" || text == "TRUE") return PyLiteral(true);
    if (text == "false" || text == "False" || text == "FALSE") return PyLiteral(false);
    static const std::regex kInteger("[-+]?[0-9]+");
    static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    if (std::regex_match(text, kInteger)) {
        std::int64_t value = 0;
        const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
        const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
        if (ec == std::errc() && end == text.data() + text.size()) return PyLiteral(value);
        fail(node, "integer " + text + " is out of range");
    }
    if (std::regex_match(text, kFloat)) return PyLiteral(std::stod(text));
    return PyLiteral(text);
}

std::string text(const YAML::Node& node, std::string_view key) {
    if (!node.IsScalar() || (is_plain(node) && scalar_value(node).value().index() != 4)) {
        fail(node, "'" + std::string(key) + "': expected a string, found " + kind_of(node));
    }
    if (node.Scalar().empty()) fail(node, "'" + std::string(key) + "': expected a non-empty string");
    return node.Scalar();
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
        out.path = text(node, key);
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
            out.path = text(item.second, name);
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

void check_depth(const YAML::Node& node, std::size_t depth, std::size_t limit) {
    if (depth > limit) fail(node, "nesting deeper than " + std::to_string(limit) + " levels");
    if (node.IsSequence()) {
        for (const auto& item : node) check_depth(item, depth + 1, limit);
    } else if (node.IsMap()) {
        for (const auto& item : node) check_depth(item.second, depth + 1, limit);
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
            out.module_type = text(value, key);
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
    if (!root.IsMap()) fail(root, "expected a mapping with a plan_overrides list, found " + kind_of(root));
    check_depth(root, 1, limits.max_depth);
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
        } else if (key == "model_type") {
            plan.model_type = text(item.second, key);
        } else if (key == "architecture") {
            plan.architecture = text(item.second, key);
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
    try {
        const YAML::Node root = YAML::Load(text_in);
        result.plan = parse_root(root, file_name, limits);
    } catch (const PlanFailure& failure) {
        result.error = PlanError{file_name, failure.location, failure.message};
    } catch (const YAML::Exception& error) {
        const SourceLocation location = error.mark.is_null()
                                            ? SourceLocation{}
                                            : SourceLocation{static_cast<std::size_t>(error.mark.line) + 1,
                                                             static_cast<std::size_t>(error.mark.column) + 1};
        result.error = PlanError{file_name, location, "not valid YAML: " + error.msg};
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
