// The registry's one rule for the spellings of a family: the key a spelling normalises to, and which
// family a spelling finds. Registry::find_family answers by it, and so do the tools that look a
// family up without a registry (famspec sync and audit, through famspec._native).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/sdk/export.hpp"

namespace famspec {

// lower-case (ASCII only, so never the host's locale), '_' and '-' removed, then the first of the
// HF task suffixes (ForCausalLM, ForConditionalGeneration, ForSequenceClassification,
// ForImageTextToText) stripped, unless it is the whole key. Any other byte is kept as it is.
FAMSPEC_API std::string normalize_family_key(std::string_view name);

// A family's names, as a lookup without a registry is given them.
struct FamilyNames {
    std::string model_type;
    std::string architecture;
    std::vector<std::string> aliases;
    std::vector<std::string> directory_aliases;
};

// The index of the family `spelling` names among `families`, by Registry::find_family's rule: the
// family whose model_type is the spelling itself; else the first family whose model_type has the
// spelling's key; else the first whose architecture or alias has it; else the first with a directory
// alias of that key. nullopt when none does.
FAMSPEC_API std::optional<std::size_t> find_family_among(std::span<const FamilyNames> families,
                                                         std::string_view spelling);

}  // namespace famspec
