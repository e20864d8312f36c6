#include "suggest.hpp"

#include <algorithm>
#include <cctype>

namespace famspec::cli {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

}  // namespace

std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& candidates) {
    constexpr std::size_t kLongest = 256;  // names from plans are bounded; beyond this, no guess
    if (name.empty() || name.size() > kLongest) return {};
    const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
    std::size_t best = limit + 1;
    std::vector<std::string> out;
    for (const std::string& candidate : candidates) {
        if (candidate.size() > kLongest) continue;
        const std::size_t d = distance(name, candidate);
        if (d > limit || d > best) continue;
        if (d < best) out.clear();
        best = d;
        out.push_back(candidate);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
    const std::vector<std::string> near = nearest(name, candidates);
    if (near.empty()) return {};
    std::string text = "; did you mean ";
    for (std::size_t i = 0; i < near.size(); ++i) {
        if (i > 0) text += i + 1 == near.size() ? " or " : ", ";
        text += "'" + near[i] + "'";
    }
    return text + "?";
}

}  // namespace famspec::cli
