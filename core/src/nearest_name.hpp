// "Did you mean": the known names closest to an unknown one, by edit distance.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace famspec::detail {

// The candidates within a small edit distance of `name` (about a third of its length, at least 2),
// nearest first, then in byte order; at most `most` of them.
std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string_view> candidates,
                                       std::size_t most = 3);
std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string> candidates,
                                       std::size_t most = 3);

// " (did you mean `a`?)", " (did you mean `a` or `b`?)", or empty.
std::string did_you_mean(const std::vector<std::string>& names);

}  // namespace famspec::detail
