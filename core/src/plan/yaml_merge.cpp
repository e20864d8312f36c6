#include "plan/yaml_merge.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace famspec::detail {
namespace {

// The mappings one `<<` key merges, in its list's order; checked before anything is merged.
std::vector<const YamlData*> merged_by(const YamlNode& key, const YamlNode& value) {
    const auto source = [&key](const YamlNode& node) {
        if (!node.IsMap()) {
            fail(node, "merge key '<<': expected a mapping (such as *defaults) or a list of mappings, found " +
                           kind_of(node));
        }
        if (node.data()->open) fail(key, "merge key '<<': a mapping cannot merge itself or a mapping it is part of");
        return node.data();
    };
    if (!value.IsSequence()) return {source(value)};
    std::vector<const YamlData*> sources;
    for (const auto& element : value) sources.push_back(source(element));
    return sources;
}

}  // namespace

bool is_merge_key(const YamlNode& key) {
    return key.IsScalar() && key.Scalar() == "<<" && (key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:merge");
}

void apply_merge_keys(YamlData& map, std::size_t& budget, std::size_t limit) {
    // Most mappings have no merge key: they are left as they are, without a copy.
    if (std::none_of(map.items.begin(), map.items.end(),
                     [](const YamlItem& item) { return is_merge_key(item.first); })) {
        return;
    }
    std::vector<YamlItem> pairs;
    std::vector<std::vector<const YamlData*>> merges;  // one list per `<<` key, in the mapping's order
    for (const YamlItem& item : map.items) {
        if (is_merge_key(item.first)) {
            merges.push_back(merged_by(item.first, item.second));
        } else {
            pairs.push_back(item);
        }
    }
    if (merges.empty()) return;
    // Keys compare by their text. A key the mapping already has is not merged; the pairs of one
    // merged mapping are all kept, so that a key it repeats is still seen twice where keys are checked.
    std::unordered_set<std::string_view> claimed;
    for (const YamlItem& pair : pairs) {
        if (pair.first.IsScalar()) claimed.insert(pair.first.Scalar());
    }
    const YamlNode at_map(&map);
    for (auto merge = merges.rbegin(); merge != merges.rend(); ++merge) {
        for (const YamlData* source : *merge) {
            std::vector<std::string_view> added;
            for (const YamlItem& pair : source->items) {
                if (budget == 0) {
                    fail(at_map, "the plan's merge keys ('<<') look at more than " + std::to_string(limit) +
                                     " pairs (YAML aliases can multiply a small file)");
                }
                --budget;
                const bool scalar = pair.first.IsScalar();
                if (scalar && claimed.contains(pair.first.Scalar())) continue;
                pairs.push_back(pair);
                if (scalar) added.push_back(pair.first.Scalar());
            }
            claimed.insert(added.begin(), added.end());
        }
    }
    map.items = std::move(pairs);
}

}  // namespace famspec::detail
