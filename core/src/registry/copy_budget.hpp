// How much the core copies out of one plugin's tables: at most kCopyMultiple times the block's size
// (plus a small allowance). Rows may name the same string or list many times, and a block of a few
// MiB could otherwise make the core copy gigabytes; a plugin that would is refused whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "famspec/table_view.hpp"

namespace famspec::detail {

inline constexpr std::uint64_t kCopyMultiple = 8;
inline constexpr std::uint64_t kCopyAllowance = std::uint64_t{64} << 10;

struct CopyBudgetExceeded : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CopyBudget {
public:
    explicit CopyBudget(std::uint64_t block_bytes)
        : block_(block_bytes), left_(kCopyMultiple * block_bytes + kCopyAllowance) {}

    // Takes `bytes` from what is left, or throws CopyBudgetExceeded naming the bound.
    void charge(std::uint64_t bytes) {
        if (bytes > left_) {
            throw CopyBudgetExceeded(
                "its rows name their strings and lists so often that copying them would take more "
                "than " +
                std::to_string(kCopyMultiple) + " times its " + std::to_string(block_) + "-byte block");
        }
        left_ -= bytes;
    }

private:
    std::uint64_t block_;
    std::uint64_t left_;
};

// Reads strings and lists out of a checked block, each charged to the plugin's budget: a list of
// empty strings costs its rows. The claims and the staged declarations are both read through it.
class BudgetedReader {
public:
    BudgetedReader(const tables::TableView& view, CopyBudget& budget) : view_(view), budget_(budget) {}

    std::string text(tables::Text at) const {
        budget_.charge(at.size);
        return std::string(view_.text(at));
    }
    template <class Row>
    std::span<const Row> rows(tables::Range at) const {
        budget_.charge(std::uint64_t{at.count} * sizeof(Row));
        return view_.rows<Row>(at);
    }
    std::vector<std::string> texts(tables::Range at) const {
        std::vector<std::string> out;
        for (const tables::Text each : rows<tables::Text>(at)) out.push_back(text(each));
        return out;
    }
    // A string the core makes from the block's (a declaration's copy of its family's name).
    void charge(std::uint64_t bytes) const { budget_.charge(bytes); }

private:
    const tables::TableView& view_;
    CopyBudget& budget_;
};

}  // namespace famspec::detail
