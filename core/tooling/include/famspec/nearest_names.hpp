// "Did you mean": the known names closest to an unknown one. One rule for the plan reader, the
// resolver's messages and the CLI.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace famspec {

// The candidates nearest to `name`, if they are within a small edit distance of it (a third of its
// length, at least 2; a swap of neighbours is one edit, ASCII case is ignored): every candidate at
// that distance, in byte order, each once, at most `most` of them. `name` itself is not a suggestion.
std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string_view> candidates,
                                       std::size_t most = 3);
std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string> candidates,
                                       std::size_t most = 3);

// Every candidate close to `name`, best first (by that edit distance, then byte order), each once:
// those within the bound above, and those that start with `name` (ASCII case ignored; `name` has
// at least 3 characters), whatever their distance.
std::vector<std::string> close_names(std::string_view name, std::span<const std::string> candidates);

// " (did you mean `a`?)", " (did you mean `a` or `b`?)", or empty.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace famspec
