// The resolver's front cache: the answer to a question asked before, found from the question as it
// was asked (slot, target, model_type, module_type, options), before any family lookup, key building
// or explanation. A hit allocates nothing: it copies the answer's shared pointers.
//
// Two levels. Each thread keeps its own small direct-mapped table of the answers it used, tagged with
// the cache's generation: a hit there takes no lock and writes no shared memory (the only shared read
// is the generation). Behind it, one bounded table under a shared mutex holds the answers of every
// thread; a thread goes there on its first question and on a collision in its own table. Clearing
// (or starting over when full) gives the cache a new process-unique generation, so every thread's
// entries go stale at once without any thread touching another's. A thread's table keeps at most
// kThreadSlots answers alive (of any cache, even one destroyed since) until they are overwritten or
// the thread exits.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <variant>

#include "famspec/explanation.hpp"
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

// A question and its answer, immutable once made: threads share it by pointer.
template <class T>
struct Answered {
    StoredQuestion question;
    Resolution<T> answer;
};

// Every cache and every clear of one gets its own; 0 is no generation.
inline std::uint64_t next_answer_generation() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// One thread's answers, of every AnswerCache<T> it asked.
template <class T>
struct ThreadAnswers {
    static constexpr std::size_t kThreadSlots = 256;  // a power of two
    struct Slot {
        std::uint64_t generation = 0;
        std::shared_ptr<const Answered<T>> entry;
    };
    std::array<Slot, kThreadSlots> slots;

    // `mask` is one less than the number of slots a cache may use.
    static Slot& slot_for(std::size_t hash, std::size_t mask) {
        thread_local ThreadAnswers answers;
        return answers.slots[hash & mask];
    }
};

template <class T>
class AnswerCache {
public:
    // A thread keeps at most `capacity` of its answers too (rounded down to a power of two, at most
    // kThreadSlots).
    explicit AnswerCache(std::size_t capacity)
        : capacity_(capacity), mask_(std::bit_floor(std::min(std::max<std::size_t>(capacity, 1), kThreadSlots)) - 1) {}

    std::optional<Resolution<T>> find(const Question& question) const {
        // Read before the shared table: an entry found there is tagged with a generation no newer
        // than the table it came from, so it never outlives a clear.
        const std::uint64_t generation = generation_.load(std::memory_order_acquire);
        auto& mine = ThreadAnswers<T>::slot_for(question.hash, mask_);
        if (mine.generation == generation && same_question(mine.entry->question, question)) return mine.entry->answer;
        std::shared_ptr<const Answered<T>> shared;
        {
            const std::shared_lock lock(mutex_);
            const auto it = answers_.find(question);
            if (it == answers_.end()) return std::nullopt;
            shared = *it;
        }
        mine = {generation, shared};
        return shared->answer;
    }

    // Keeps `answer` for its question, with an explanation that says it came from the cache.
    // Errors are never kept: the host hears of each one.
    void remember(const Question& question, const Resolution<T>& answer) {
        if (answer.status() == ResolutionStatus::error || capacity_ == 0) return;
        auto entry = std::make_shared<Answered<T>>(Answered<T>{StoredQuestion(question), answer});
        auto explanation = std::make_shared<Explanation>(*answer.explanation);
        explanation->cache_hit = true;
        entry->answer.explanation = std::move(explanation);
        std::shared_ptr<const Answered<T>> kept = std::move(entry);
        std::uint64_t generation = 0;
        {
            const std::unique_lock lock(mutex_);
            if (answers_.size() >= capacity_) start_over();
            kept = *answers_.insert(std::move(kept)).first;  // a racing thread's earlier answer wins
            generation = generation_.load(std::memory_order_relaxed);
        }
        ThreadAnswers<T>::slot_for(question.hash, mask_) = {generation, std::move(kept)};
    }

    void clear() {
        const std::unique_lock lock(mutex_);
        start_over();
    }

private:
    // Under the unique lock. The table is emptied before the generation moves on, so that a thread
    // that reads the new generation finds only answers kept after it.
    void start_over() {
        answers_.clear();
        generation_.store(next_answer_generation(), std::memory_order_release);
    }

    using Entry = std::shared_ptr<const Answered<T>>;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(const Entry& e) const { return e->question.hash; }
        std::size_t operator()(const Question& q) const { return q.hash; }
    };
    struct Equal {
        using is_transparent = void;
        bool operator()(const Entry& a, const Entry& b) const { return same_question(a->question, b->question); }
        bool operator()(const Entry& a, const Question& b) const { return same_question(a->question, b); }
        bool operator()(const Question& a, const Entry& b) const { return same_question(a, b->question); }
    };

    static constexpr std::size_t kThreadSlots = ThreadAnswers<T>::kThreadSlots;

    std::size_t capacity_;
    std::size_t mask_;
    std::atomic<std::uint64_t> generation_{next_answer_generation()};
    mutable std::shared_mutex mutex_;
    std::unordered_set<Entry, Hash, Equal> answers_;
};

}  // namespace famspec::detail
