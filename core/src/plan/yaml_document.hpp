// The one YAML document of a plan, as the plan reader walks it. It is built from yaml-cpp's parser
// events in the same pass that makes sure no second document follows, so a plan is scanned once
// (YAML::Load would scan it a second time).
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "plan/yaml_node.hpp"

namespace famspec::detail {

// Owns the nodes; an alias is the node its anchor names, shared, as in YAML::Node.
struct YamlDocument {
    std::unique_ptr<std::deque<YamlData>> nodes = std::make_unique<std::deque<YamlData>>();
    YamlNode root;
};

// The one document of a plan; an empty stream gives a null root. yaml-cpp's LoadAll can loop for
// ever on some damaged inputs (","): reading stops at the second document, which is an error.
// Merge keys are applied as the document is built (yaml_merge.hpp), looking at no more than
// `max_merged` pairs. Throws PlanFailure for a second document and for a merge it cannot make, and
// YAML::Exception for what the parser refuses.
YamlDocument load_one_document(const std::string& text, std::size_t max_merged = 1'000'000);

}  // namespace famspec::detail
