// YAML merge keys ('<<'), read as the runtime's loader (PyYAML) reads them: in any mapping, at any
// level, `<<: *a` or `<<: [*a, *b]` adds the pairs of the merged mappings whose keys the mapping does
// not already have. Explicit keys win, then the mappings of a list in their order; of several `<<`
// keys in one mapping, the last one wins. The merged pairs are the anchor's own nodes (an error in
// one is reported where the anchor wrote it), and every pair looked at counts against a budget, so
// that merges cannot multiply a small file past the plan's node limit.
#pragma once

#include <cstddef>

#include "plan/yaml_node.hpp"

namespace famspec::detail {

// A plain `<<` key, or one tagged `!!merge`; a quoted '<<' is an ordinary key, as for PyYAML.
bool is_merge_key(const YamlNode& key);

// Replaces the merge keys of a mapping that has just been read whole by the pairs they merge.
// `budget` is what is left of the pairs merges may look at in this document; it is decremented.
// Throws PlanFailure for a merge value that is not a mapping or a list of mappings, for a mapping
// that merges itself or a mapping it is part of, and when the budget runs out.
void apply_merge_keys(YamlData& map, std::size_t& budget, std::size_t limit);

}  // namespace famspec::detail
