// Reading YAML scalars and shapes for the plan reader: each helper either returns the value or
// throws PlanFailure with the node's position and what was expected.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "famspec/plan.hpp"
#include "plan/yaml_document.hpp"

namespace famspec::detail {

// YAML leaves a repeated key to the reader; a plan that says a thing twice is refused.
void check_unique_keys(const YamlNode& map);
// Walks the tree once before anything else reads it, counting nodes against the alias budget.
void check_size(const YamlNode& node, std::size_t depth, const PlanLimits& limits, std::size_t& visited);

// The YAML 1.2 core schema for a plain scalar.
PyLiteral scalar_value(const YamlNode& node);
std::string text(const YamlNode& node, std::string_view key);
std::string dotted_path(const YamlNode& node, std::string_view key);
std::string family_name(const YamlNode& node, std::string_view key);
bool boolean(const YamlNode& node, std::string_view key);
std::vector<std::string> text_list(const YamlNode& node, std::string_view key);
bool is_identifier(const std::string& name);

// The first plan_overrides key below the top level (a list put under another section by mistake),
// with the dotted keys that lead to it; check_size bounds the walk.
std::optional<std::pair<YamlNode, std::string>> nested_overrides(const YamlNode& node, const std::string& path);
// "line:column" of a node, for a message about another place.
std::string position(const YamlNode& node);

// Where the byte at `offset` is: line and column, both from 1.
SourceLocation location_at(std::string_view text, std::size_t offset);
// Why `text` is not well-formed UTF-8 (RFC 3629: no overlong form, no surrogate, nothing past
// U+10FFFF), with the offset of the first bad byte; empty when it is. yaml-cpp passes such bytes
// through, and they would reach the JSON output, which must be valid UTF-8.
std::string invalid_utf8(std::string_view text, std::size_t& offset);

}  // namespace famspec::detail
