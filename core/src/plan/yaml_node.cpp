#include "plan/yaml_node.hpp"

#include <algorithm>

namespace famspec::detail {
namespace {

const std::string kNoText;
const std::vector<YamlItem> kNoItems;

}  // namespace

SourceLocation at(const YAML::Mark& mark) {
    if (mark.is_null() || mark.line < 0 || mark.column < 0) return {1, 1};
    return {static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

YAML::NodeType::value YamlNode::Type() const { return data_ == nullptr ? YAML::NodeType::Null : data_->type; }
const std::string& YamlNode::Scalar() const { return data_ == nullptr ? kNoText : data_->scalar; }
const std::string& YamlNode::Tag() const { return data_ == nullptr ? kNoText : data_->tag; }
YAML::Mark YamlNode::Mark() const { return data_ == nullptr ? YAML::Mark::null_mark() : data_->mark; }
std::size_t YamlNode::size() const { return data_ == nullptr ? 0 : data_->items.size(); }
std::vector<YamlItem>::const_iterator YamlNode::begin() const {
    return data_ == nullptr ? kNoItems.begin() : data_->items.begin();
}
std::vector<YamlItem>::const_iterator YamlNode::end() const {
    return data_ == nullptr ? kNoItems.end() : data_->items.end();
}

// A node without a mark (an empty document) is reported at the start of the file.
SourceLocation at(const YamlNode& node) { return at(node.Mark()); }

// Quotes a scalar for a message, shortened: an error should not repeat a 10,000-digit number. The
// cut falls between two characters, never inside one (the message goes to JSON and to Python as
// UTF-8), and a control character is written as an escape, so that the message stays on one line.
std::string shown(std::string_view text) {
    constexpr std::size_t kMost = 60;
    const auto continues = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
    std::size_t cut = text.size();
    if (cut > kMost) {
        cut = kMost;
        while (cut > 0 && continues(text[cut])) --cut;
    }
    std::string out = "'";
    for (const char c : text.substr(0, cut)) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (byte < 0x20 || byte == 0x7F) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 0xF];
        } else {
            out += c;
        }
    }
    if (cut == text.size()) return out + "'";
    const auto characters = std::count_if(text.begin(), text.end(), [&](char c) { return !continues(c); });
    return out + "...' (" + std::to_string(characters) + " characters)";
}

std::string kind_of(const YamlNode& node) {
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

[[noreturn]] void fail(const YamlNode& node, std::string message) { throw PlanFailure{at(node), std::move(message)}; }

}  // namespace famspec::detail
