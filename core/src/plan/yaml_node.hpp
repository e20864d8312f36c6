// A node of a plan's YAML document, as the plan reader walks it, and how a node is named in an
// error. A YamlNode is a handle into the YamlDocument that owns every node (yaml_document.hpp); it
// reads like the subset of YAML::Node the reader uses.
#pragma once

#include <yaml-cpp/mark.h>
#include <yaml-cpp/node/type.h>

#include <string>
#include <string_view>
#include <vector>

#include "famspec/plan.hpp"

namespace famspec::detail {

// Thrown inside the plan reader only; the parse functions turn it into a PlanError.
struct PlanFailure {
    SourceLocation location;
    std::string message;
};

// A mark's line and column, both from 1; a missing mark is the start of the file.
SourceLocation at(const YAML::Mark& mark);

struct YamlData;
struct YamlItem;

class YamlNode {
public:
    YamlNode() = default;  // a null node without a mark: an empty document
    explicit YamlNode(const YamlData* data) : data_(data) {}

    YAML::NodeType::value Type() const;
    bool IsDefined() const { return true; }
    bool IsNull() const { return Type() == YAML::NodeType::Null; }
    bool IsScalar() const { return Type() == YAML::NodeType::Scalar; }
    bool IsSequence() const { return Type() == YAML::NodeType::Sequence; }
    bool IsMap() const { return Type() == YAML::NodeType::Map; }
    const std::string& Scalar() const;  // empty for anything but a scalar
    const std::string& Tag() const;     // "?" for a plain scalar, "!" for a quoted one
    YAML::Mark Mark() const;
    std::size_t size() const;  // elements of a sequence, pairs of a map
    // A sequence yields its elements, a map its pairs (first, second), as YAML::Node does.
    std::vector<YamlItem>::const_iterator begin() const;
    std::vector<YamlItem>::const_iterator end() const;
    const YamlData* data() const { return data_; }  // null for an empty document

private:
    const YamlData* data_ = nullptr;
};

// What iterating a node yields: a sequence element (the item itself) or a map pair.
struct YamlItem : YamlNode {
    YamlNode first;
    YamlNode second;
};

struct YamlData {
    YAML::NodeType::value type = YAML::NodeType::Null;
    std::string scalar;
    std::string tag;
    YAML::Mark mark;
    std::vector<YamlItem> items;
    bool open = false;  // a collection whose end the parser has not reported yet
};

// A node without a mark (an empty document) is reported at the start of the file.
SourceLocation at(const YamlNode& node);
[[noreturn]] void fail(const YamlNode& node, std::string message);

// Quotes a scalar for a message, shortened: an error should not repeat a 10,000-digit number.
std::string shown(std::string_view text);
std::string kind_of(const YamlNode& node);

}  // namespace famspec::detail
