#include "famspec/family_keys.hpp"

#include <array>
#include <map>
#include <set>

#include "common/family_key_index.hpp"

namespace famspec {
namespace detail {

std::size_t normalize_family_key_into(std::string_view name, char* out) {
    std::size_t size = 0;
    for (const char c : name) {
        out[size] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        size += c != '_' && c != '-';  // no branch on the characters of the name
    }
    static constexpr std::array<std::string_view, 4> kSuffixes = {"forcausallm", "forconditionalgeneration",
                                                                  "forsequenceclassification", "forimagetexttotext"};
    const std::string_view key(out, size);
    for (const std::string_view suffix : kSuffixes) {
        // The last character first: most keys end in none of the suffixes.
        if (size > suffix.size() && key.back() == suffix.back() && key.ends_with(suffix)) return size - suffix.size();
    }
    return size;
}

std::vector<std::string> family_spellings(std::string_view model_type, std::string_view architecture,
                                          std::span<const std::string> aliases) {
    std::set<std::string> keys = {normalize_family_key(model_type), normalize_family_key(architecture)};
    for (const auto& alias : aliases) keys.insert(normalize_family_key(alias));
    keys.erase("");
    return {keys.begin(), keys.end()};
}

std::vector<std::string> directory_keys(std::span<const std::string> directory_aliases) {
    std::set<std::string> keys;
    for (const auto& alias : directory_aliases) keys.insert(normalize_family_key(alias));
    keys.erase("");
    return {keys.begin(), keys.end()};
}

}  // namespace detail

std::string normalize_family_key(std::string_view name) {
    std::string key(name.size(), '\0');
    key.resize(detail::normalize_family_key_into(name, key.data()));
    return key;
}

std::optional<std::size_t> find_family_among(std::span<const FamilyNames> families, std::string_view spelling) {
    std::vector<std::vector<std::string>> spellings;
    std::vector<std::vector<std::string>> directories;
    for (const FamilyNames& family : families) {
        spellings.push_back(detail::family_spellings(family.model_type, family.architecture, family.aliases));
        directories.push_back(detail::directory_keys(family.directory_aliases));
    }
    std::map<std::string, detail::FamilyKey, std::less<>> by_key;
    const auto model_type = [&](std::size_t i) -> const std::string& { return families[i].model_type; };
    detail::claim_family_keys(
        by_key, families.size(), model_type, [&](std::size_t i) -> const auto& { return spellings[i]; },
        [&](std::size_t i) -> const auto& { return directories[i]; });
    const auto it = by_key.find(normalize_family_key(spelling));
    const std::size_t found =
        detail::family_answering(it == by_key.end() ? nullptr : &it->second, spelling, model_type);
    if (found == detail::FamilyKey::kNone) return std::nullopt;
    return found;
}

}  // namespace famspec
