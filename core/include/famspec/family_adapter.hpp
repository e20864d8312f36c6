// A model family as the registry holds it: its identity and every spelling that names it. The core's
// copy of a plugin's `families` row; an author writes tables::Family (famspec/sdk/table_declarations.hpp).
//
// Checked at registration (model_type and architecture present, the spellings unique across the
// loaded plugins); read afterwards while a target is resolved or a component rendered. Like every
// declaration the registry holds, it is a plain value, never changed once registered, so any thread
// reads it without a lock (famspec/registry_entries.hpp).
#pragma once

#include <string>
#include <vector>

#include "famspec/source_block.hpp"

namespace famspec {

struct FamilyAdapter {
    std::string model_type{};            // the registry key, e.g. "qwen3_moe"
    std::string architecture{};          // e.g. "Qwen3MoeForCausalLM"
    std::vector<std::string> aliases{};  // further spellings (normalised by the core before use)
    // Directory keys under hyper_parallel.models.<dir> that belong to this family, e.g. "deepseekv2".
    std::vector<std::string> directory_aliases{};
    // Functions the family hands to components (kernel entries) and their helpers, for rendering.
    std::vector<SourceBlock> interface_blocks{};
    // local_compute_fn targets the family ships that are deliberately not MoE archetypes.
    std::vector<std::string> compute_functions{};

    friend bool operator==(const FamilyAdapter&, const FamilyAdapter&) = default;
};

}  // namespace famspec
