// How the keys of families are claimed and answered: the one implementation of the lookup that
// Registry::find_family and famspec::find_family_among (famspec/family_keys.hpp) share.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace famspec::detail {

// normalize_family_key's key written to `out`, which has room for name.size() characters; returns
// its length. Not exported, so that the registry's lookups call it directly, not through the PLT.
std::size_t normalize_family_key_into(std::string_view name, char* out);

// Every normalised key that names a family: its model_type, architecture and aliases; sorted, each once.
std::vector<std::string> family_spellings(std::string_view model_type, std::string_view architecture,
                                          std::span<const std::string> aliases);
// The normalised keys of a family's directory aliases; sorted, each once.
std::vector<std::string> directory_keys(std::span<const std::string> directory_aliases);

// What one normalised key answers, indices into the families. A spelling is looked up by its key
// alone: an exact model_type normalises to the key too, so it is among `model_types`.
struct FamilyKey {
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<std::size_t> model_types;  // the families whose model_type has this key
    std::size_t spelling = kNone;          // the family this key names (model_type, architecture, alias)
    std::size_t directory = kNone;         // else the family with this directory alias
};

// Fills `by_key` (a map from key to FamilyKey) for `count` families, family i given by
// model_type(i), spellings(i) and directory_keys(i) (normalised keys). Each key goes to the first
// family that claims it, every family's own name first: it outranks another family's architecture
// or alias.
template <class Map, class ModelType, class Spellings, class DirectoryKeys>
void claim_family_keys(Map& by_key, std::size_t count, ModelType model_type, Spellings spellings,
                       DirectoryKeys directory_keys) {
    const auto claim = [](std::size_t& slot, std::size_t i) {
        if (slot == FamilyKey::kNone) slot = i;
    };
    for (std::size_t i = 0; i < count; ++i) {
        std::string own(std::string_view(model_type(i)).size(), '\0');
        own.resize(normalize_family_key_into(model_type(i), own.data()));
        FamilyKey& entry = by_key[own];
        entry.model_types.push_back(i);
        claim(entry.spelling, i);
        for (const auto& key : directory_keys(i)) claim(by_key[key].directory, i);
    }
    for (std::size_t i = 0; i < count; ++i) {
        for (const auto& key : spellings(i)) claim(by_key[key].spelling, i);
    }
}

// The family `spelling` finds, given what its key answers (nullptr: nothing): the family whose
// model_type is the spelling as written, else the key's spelling, else its directory alias.
template <class ModelType>
std::size_t family_answering(const FamilyKey* key, std::string_view spelling, ModelType model_type) {
    if (key == nullptr) return FamilyKey::kNone;
    for (const std::size_t i : key->model_types) {
        if (std::string_view(model_type(i)) == spelling) return i;
    }
    return key->spelling != FamilyKey::kNone ? key->spelling : key->directory;
}

}  // namespace famspec::detail
