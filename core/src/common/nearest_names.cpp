#include "famspec/nearest_names.hpp"

#include <algorithm>
#include <utility>

namespace famspec {
namespace {

char folded(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Optimal string alignment distance (insertions, deletions, substitutions and swaps of neighbours),
// on three rows, stopping once every cell of two rows in a row is past the bound (a swap reaches
// back two rows).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t bound) {
    if (a.size() > b.size()) std::swap(a, b);
    if (b.size() - a.size() > bound) return bound + 1;
    std::vector<std::size_t> before(a.size() + 1);
    std::vector<std::size_t> last(a.size() + 1);
    std::vector<std::size_t> row(a.size() + 1);
    for (std::size_t i = 0; i <= a.size(); ++i) last[i] = i;
    std::size_t last_smallest = 0;
    for (std::size_t j = 1; j <= b.size(); ++j) {
        row[0] = j;
        std::size_t smallest = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            const bool same = folded(a[i - 1]) == folded(b[j - 1]);
            row[i] = std::min({last[i] + 1, row[i - 1] + 1, last[i - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) && folded(a[i - 2]) == folded(b[j - 1])) {
                row[i] = std::min(row[i], before[i - 2] + 1);
            }
            smallest = std::min(smallest, row[i]);
        }
        if (smallest > bound && last_smallest > bound) return bound + 1;
        last_smallest = smallest;
        std::swap(before, last);
        std::swap(last, row);
    }
    return last[a.size()];
}

template <class Name>
std::vector<std::string> nearest(std::string_view name, std::span<const Name> candidates, std::size_t most) {
    const std::size_t bound = std::max<std::size_t>(2, name.size() / 3);
    std::vector<std::pair<std::size_t, std::string_view>> close;
    for (const Name& candidate : candidates) {
        const std::string_view text(candidate);
        if (text == name) continue;
        const std::size_t distance = edit_distance(name, text, bound);
        if (distance <= bound) close.emplace_back(distance, text);
    }
    std::sort(close.begin(), close.end());
    close.erase(std::unique(close.begin(), close.end()), close.end());
    std::vector<std::string> out;
    for (std::size_t i = 0; i < close.size() && i < most && close[i].first == close.front().first; ++i) {
        out.emplace_back(close[i].second);
    }
    return out;
}

}  // namespace

std::vector<std::string> close_names(std::string_view name, std::span<const std::string> candidates) {
    const std::size_t bound = std::max<std::size_t>(2, name.size() / 3);
    const auto starts = [name](std::string_view text) {
        if (name.size() < 3 || text.size() <= name.size()) return false;
        return std::equal(name.begin(), name.end(), text.begin(),
                          [](char a, char b) { return folded(a) == folded(b); });
    };
    std::vector<std::pair<std::size_t, std::string_view>> close;
    for (const std::string& candidate : candidates) {
        const std::string_view text(candidate);
        if (text == name) continue;
        const bool completes = starts(text);
        const std::size_t distance = edit_distance(name, text, completes ? text.size() : bound);
        if (completes || distance <= bound) close.emplace_back(distance, text);
    }
    std::sort(close.begin(), close.end());
    std::vector<std::string> out;
    for (const auto& [distance, text] : close) {
        if (std::find(out.begin(), out.end(), text) == out.end()) out.emplace_back(text);
    }
    return out;
}

std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string_view> candidates,
                                       std::size_t most) {
    return nearest(name, candidates, most);
}

std::vector<std::string> nearest_names(std::string_view name, std::span<const std::string> candidates,
                                       std::size_t most) {
    return nearest(name, candidates, most);
}

std::string did_you_mean(const std::vector<std::string>& names) {
    if (names.empty()) return {};
    std::string text = " (did you mean ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
        text += "`" + names[i] + "`";
    }
    return text + "?)";
}

}  // namespace famspec
