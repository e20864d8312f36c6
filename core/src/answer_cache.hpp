// The resolver's front cache: the answer to a question asked before, found from the question as it
// was asked (slot, target, model_type, module_type, options), before any family lookup, key building
// or explanation. A hit allocates nothing: it copies the answer's shared pointers. Readers share the
// lock and never wait for one another; a writer only inserts. Bounded: when full it starts over, and
// the identity cache behind it still holds the built objects.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "famspec/plan.hpp"
#include "famspec/resolution.hpp"

namespace famspec::detail {

// Equal literals print the same: unlike ==, 0.0 and -0.0 (or two NaNs) are told apart by their bits.
inline bool same_literal(const PyLiteral& a, const PyLiteral& b) {
    if (a.value().index() != b.value().index()) return false;
    if (const double* x = std::get_if<double>(&a.value())) {
        return std::bit_cast<std::uint64_t>(*x) == std::bit_cast<std::uint64_t>(std::get<double>(b.value()));
    }
    return a == b;
}

inline bool same_options(const Options& a, const Options& b) {
    if (a.size() != b.size()) return false;
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
        if (x->first != y->first || !same_literal(x->second, y->second)) return false;
    }
    return true;
}

// A question as the caller asked it; it refers to the caller's arguments and is hashed once.
struct Question {
    Question(char slot, std::string_view target, const std::optional<std::string>& model_type,
             const std::optional<std::string>& module_type, const Options& options)
        : slot(slot), target(target), model_type(model_type), module_type(module_type), options(options) {
        const auto mix = [this](std::size_t h) { hash = (hash ^ h) * 0x100000001b3ULL; };
        mix(static_cast<unsigned char>(slot));
        mix(std::hash<std::string_view>{}(target));
        // An absent part and any string (even an empty one) hash apart.
        mix(model_type ? std::hash<std::string_view>{}(*model_type) : 0x9e3779b97f4a7c15ULL);
        mix(module_type ? std::hash<std::string_view>{}(*module_type) : 0x9e3779b97f4a7c15ULL);
        for (const auto& [name, value] : options) {
            mix(std::hash<std::string_view>{}(name));
            mix(value.value().index());
        }
    }

    char slot;
    std::string_view target;
    const std::optional<std::string>& model_type;
    const std::optional<std::string>& module_type;
    const Options& options;
    std::size_t hash = 0xcbf29ce484222325ULL;
};

// The same question, owned by the cache.
struct StoredQuestion {
    explicit StoredQuestion(const Question& q)
        : slot(q.slot),
          target(q.target),
          model_type(q.model_type),
          module_type(q.module_type),
          options(q.options),
          hash(q.hash) {}

    char slot;
    std::string target;
    std::optional<std::string> model_type;
    std::optional<std::string> module_type;
    Options options;
    std::size_t hash;
};

template <class A, class B>
bool same_question(const A& a, const B& b) {
    return a.hash == b.hash && a.slot == b.slot && a.target == b.target && a.model_type == b.model_type &&
           a.module_type == b.module_type && same_options(a.options, b.options);
}

template <class T>
class AnswerCache {
public:
    explicit AnswerCache(std::size_t capacity) : capacity_(capacity) {}

    std::optional<Resolution<T>> find(const Question& question) const {
        const std::shared_lock lock(mutex_);
        const auto it = answers_.find(question);
        if (it == answers_.end()) return std::nullopt;
        return it->second;
    }

    // Keeps `answer` for its question, with an explanation that says it came from the cache.
    // Errors are never kept: the host hears of each one.
    void remember(const Question& question, const Resolution<T>& answer) {
        if (answer.status == ResolutionStatus::error || capacity_ == 0) return;
        Resolution<T> kept = answer;
        auto explanation = std::make_shared<Explanation>(*answer.explanation);
        explanation->cache_hit = true;
        kept.explanation = std::move(explanation);
        const std::unique_lock lock(mutex_);
        if (answers_.size() >= capacity_) answers_.clear();
        answers_.try_emplace(StoredQuestion(question), std::move(kept));
    }

    void clear() {
        const std::unique_lock lock(mutex_);
        answers_.clear();
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(const StoredQuestion& q) const { return q.hash; }
        std::size_t operator()(const Question& q) const { return q.hash; }
    };
    struct Equal {
        using is_transparent = void;
        template <class A, class B>
        bool operator()(const A& a, const B& b) const {
            return same_question(a, b);
        }
    };

    std::size_t capacity_;
    mutable std::shared_mutex mutex_;
    std::unordered_map<StoredQuestion, Resolution<T>, Hash, Equal> answers_;
};

}  // namespace famspec::detail
