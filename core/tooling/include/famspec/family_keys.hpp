// The normalised keys a family is looked up by: the registry's one rule for spellings.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace famspec {

// lower-case (ASCII only, so never the host's locale), '_' and '-' removed, then the first of the
// HF task suffixes stripped.
std::string normalize_family_key(std::string_view name);
// The same key written to `out`, which has room for name.size() characters; returns its length.
// The registry's own (not exported), so that its lookups call it directly, not through the PLT.
std::size_t normalize_family_key_into(std::string_view name, char* out);

// Every normalised key that names a family: its model_type, architecture and aliases; sorted, each once.
std::vector<std::string> family_spellings(std::string_view model_type, std::string_view architecture,
                                          std::span<const std::string> aliases);
// The normalised keys of a family's directory aliases; sorted, each once.
std::vector<std::string> directory_keys(std::span<const std::string> directory_aliases);

}  // namespace famspec
