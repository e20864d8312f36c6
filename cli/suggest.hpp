// "Did you mean": the candidates nearest to a name nobody declared.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace famspec::cli {

// The candidates at the smallest edit distance from name (case-insensitive, a transposition counts
// as one edit), if that distance is small for the name's length; sorted, without duplicates.
std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& candidates);

// "; did you mean 'a' or 'b'?", or "" when nothing is near.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace famspec::cli
