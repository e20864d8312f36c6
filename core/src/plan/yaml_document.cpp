#include "plan/yaml_document.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <optional>
#include <sstream>

#include "plan/yaml_merge.hpp"

namespace famspec::detail {

namespace {

// Builds the first document's nodes as the parser reports them; collections are closed in the order
// they were opened, so an explicit stack replaces recursion.
class Builder : public YAML::EventHandler {
public:
    Builder(std::deque<YamlData>& nodes, std::size_t max_merged)
        : nodes_(nodes), merge_budget_(max_merged), max_merged_(max_merged) {}

    YamlNode root() const { return root_; }
    const YAML::Mark& start() const { return start_; }

    void OnDocumentStart(const YAML::Mark& mark) override { start_ = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        add(make(YAML::NodeType::Null, mark, "", {}, anchor));
    }
    void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override { add(anchors_.at(anchor - 1)); }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        add(make(YAML::NodeType::Scalar, mark, tag, value, anchor));
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(make(YAML::NodeType::Sequence, mark, tag, {}, anchor));
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(make(YAML::NodeType::Map, mark, tag, {}, anchor));
    }
    void OnMapEnd() override { close(); }

private:
    struct Open {
        YamlData* node;
        std::optional<YamlNode> key;  // a map's key, until its value arrives
    };

    YamlData* make(YAML::NodeType::value type, const YAML::Mark& mark, const std::string& tag,
                   const std::string& scalar, YAML::anchor_t anchor) {
        YamlData& node = nodes_.emplace_back(YamlData{type, scalar, tag, mark, {}});
        // yaml-cpp numbers anchors from 1, in the order they are defined.
        if (anchor != YAML::NullAnchor) {
            if (anchors_.size() < anchor) anchors_.resize(anchor, nullptr);
            anchors_[anchor - 1] = &node;
        }
        return &node;
    }

    void add(const YamlData* node) {
        if (open_.empty()) {
            root_ = YamlNode(node);
            return;
        }
        Open& parent = open_.back();
        if (parent.node->type == YAML::NodeType::Sequence) {
            parent.node->items.push_back(YamlItem{YamlNode(node), {}, {}});
        } else if (!parent.key) {
            parent.key = YamlNode(node);
        } else {
            parent.node->items.push_back(YamlItem{{}, *parent.key, YamlNode(node)});
            parent.key.reset();
        }
    }

    void open(YamlData* node) {
        add(node);
        node->open = true;
        open_.push_back({node, std::nullopt});
    }

    // A mapping's merge keys are applied when it ends: the mappings it merges have ended before it.
    void close() {
        YamlData* node = open_.back().node;
        open_.pop_back();
        if (node->type == YAML::NodeType::Map) apply_merge_keys(*node, merge_budget_, max_merged_);
        node->open = false;  // after its merges: a mapping that merges itself is still open then
    }

    std::deque<YamlData>& nodes_;
    std::vector<const YamlData*> anchors_;
    std::vector<Open> open_;
    YAML::Mark start_;
    YamlNode root_;
    std::size_t merge_budget_;
    std::size_t max_merged_;
};

// Reads the rest of the stream without building it: only whether a second document starts, and where.
struct NextDocument : YAML::EventHandler {
    YAML::Mark start;
    void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

}  // namespace

YamlDocument load_one_document(const std::string& text, std::size_t max_merged) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    YamlDocument document;
    Builder builder(*document.nodes, max_merged);
    if (!parser.HandleNextDocument(builder)) return document;
    document.root = builder.root();
    NextDocument rest;
    if (parser.HandleNextDocument(rest)) {
        const YAML::Mark& first = builder.start();
        const YAML::Mark& second = rest.start;
        // A document that consumed nothing is a token the reader could not start a node with.
        if (second.pos == first.pos) {
            const char found =
                second.pos >= 0 && static_cast<std::size_t>(second.pos) < text.size() ? text[second.pos] : '?';
            throw PlanFailure{at(second), "not valid YAML: unexpected " + shown(std::string_view(&found, 1))};
        }
        throw PlanFailure{at(second), "the plan holds a second YAML document; expected one"};
    }
    return document;
}

}  // namespace famspec::detail
