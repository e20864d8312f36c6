// How much the core copies out of one plugin's tables: at most kCopyMultiple times the block's size
// (plus a small allowance). Rows may name the same string or list many times, and a block of a few
// MiB could otherwise make the core copy gigabytes; a plugin that would is refused whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

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

}  // namespace famspec::detail
