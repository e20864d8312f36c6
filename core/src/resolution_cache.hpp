// A bounded, thread-safe LRU of resolution outcomes. The first outcome stored for a key wins, so
// concurrent resolutions of one key still hand every caller the same object.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "outcome.hpp"

namespace famspec::detail {

template <class T>
class ResolutionCache {
public:
    explicit ResolutionCache(std::size_t capacity) : capacity_(capacity) {}

    std::optional<Outcome<T>> find(const std::string& key) {
        const std::lock_guard lock(mutex_);
        const auto it = index_.find(key);
        if (it == index_.end()) return std::nullopt;
        entries_.splice(entries_.begin(), entries_, it->second);
        return it->second->second;
    }

    // Returns what is cached for the key afterwards: `outcome`, or an earlier one if a racing
    // thread stored first. Errors are never cached.
    Outcome<T> store(const std::string& key, Outcome<T> outcome) {
        if (outcome.is_error() || capacity_ == 0) return outcome;
        const std::lock_guard lock(mutex_);
        if (const auto it = index_.find(key); it != index_.end()) return it->second->second;
        entries_.emplace_front(key, std::move(outcome));
        index_.emplace(key, entries_.begin());
        while (entries_.size() > capacity_) {
            index_.erase(entries_.back().first);
            entries_.pop_back();
        }
        return entries_.front().second;
    }

    void clear() {
        const std::lock_guard lock(mutex_);
        index_.clear();
        entries_.clear();
    }

    std::size_t size() {
        const std::lock_guard lock(mutex_);
        return entries_.size();
    }

private:
    using Entry = std::pair<std::string, Outcome<T>>;
    std::size_t capacity_;
    std::mutex mutex_;
    std::list<Entry> entries_;
    std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
};

}  // namespace famspec::detail
