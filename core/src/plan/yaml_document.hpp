// The one YAML document of a plan, as the plan reader walks it. It is built from yaml-cpp's parser
// events in the same pass that makes sure no second document follows, so a plan is scanned once
// (YAML::Load would scan it a second time). A YamlNode is a handle into the YamlDocument that owns
// every node; it reads like the subset of YAML::Node the reader uses.
#pragma once

#include <yaml-cpp/mark.h>
#include <yaml-cpp/node/type.h>

#include <deque>
#include <memory>
#include <string>
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
};

// Owns the nodes; an alias is the node its anchor names, shared, as in YAML::Node.
struct YamlDocument {
    std::unique_ptr<std::deque<YamlData>> nodes = std::make_unique<std::deque<YamlData>>();
    YamlNode root;
};

// The one document of a plan; an empty stream gives a null root. yaml-cpp's LoadAll can loop for
// ever on some damaged inputs (","): reading stops at the second document, which is an error.
// Throws PlanFailure for a second document, and YAML::Exception for what the parser refuses.
YamlDocument load_one_document(const std::string& text);

}  // namespace famspec::detail
