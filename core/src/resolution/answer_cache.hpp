// The resolver's one cache: the answer to a request asked before, found from the request as it was
// asked (entry point, slot, strictness, target, model_type, module_type, options), before any family
// lookup or explanation. A hit allocates nothing: it copies the answer's shared pointers.
//
// One bounded table under a shared mutex, owned by the resolver: hits take the lock shared, a miss
// stores under the unique lock, and the first answer stored for a request wins, so concurrent callers
// of one request get the same objects. When the table is full it starts over. Errors are never kept.
#pragma once

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
#include "famspec/resolver.hpp"

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

// A ResolveRequest as the caller holds it, borrowed: the cache's key is a ResolveRequest, and a lookup
// through this view copies none of its parts. The request is built only when it has to be resolved.
struct RequestView {
    std::string_view target;
    const std::optional<std::string>& model_type;
    Slot slot;
    const std::optional<std::string>& module_type;
    const Options& options;
    bool strict;

    ResolveRequest request() const {
        return {.target = std::string(target),
                .model_type = model_type,
                .slot = slot,
                .module_type = module_type,
                .options = options,
                .strict = strict};
    }
};

inline std::size_t request_hash(const RequestView& r) {
    std::size_t hash = 0xcbf29ce484222325ULL;
    const auto mix = [&hash](std::size_t h) { hash = (hash ^ h) * 0x100000001b3ULL; };
    mix(static_cast<std::size_t>(r.slot) * 2 + (r.strict ? 1 : 0));
    mix(std::hash<std::string_view>{}(r.target));
    // An absent part and any string (even an empty one) hash apart.
    mix(r.model_type ? std::hash<std::string_view>{}(*r.model_type) : 0x9e3779b97f4a7c15ULL);
    mix(r.module_type ? std::hash<std::string_view>{}(*r.module_type) : 0x9e3779b97f4a7c15ULL);
    for (const auto& [name, value] : r.options) {
        mix(std::hash<std::string_view>{}(name));
        mix(value.value().index());
    }
    return hash;
}

inline bool same_request(const ResolveRequest& a, const RequestView& b) {
    return a.slot == b.slot && a.strict == b.strict && a.target == b.target && a.model_type == b.model_type &&
           a.module_type == b.module_type && same_options(a.options, b.options);
}

class AnswerCache {
public:
    // The answer for a request: which entry point answered is part of the key (its index here).
    using Answer = std::variant<Resolution<ReplacementSpec>, Resolution<StrategySpec>>;

    explicit AnswerCache(std::size_t capacity) : capacity_(capacity) {}

    template <class T>
    std::optional<Resolution<T>> find(const RequestView& request, std::size_t hash) const {
        const std::shared_lock lock(mutex_);
        const auto it = entries_.find(Probe{request, hash, index_of<T>()});
        if (it == entries_.end()) return std::nullopt;
        return std::get<Resolution<T>>((*it)->answer);
    }

    // Keeps `answer` for its request, with an explanation that says it came from the cache, and
    // returns what is kept: `answer`, or the answer a racing thread stored first.
    template <class T>
    Resolution<T> remember(const RequestView& request, std::size_t hash, Resolution<T> answer) {
        if (answer.status() == ResolutionStatus::error || capacity_ == 0) return answer;
        Resolution<T> stored = answer;
        auto explanation = std::make_shared<Explanation>(*answer.explanation);
        explanation->cache_hit = true;
        stored.explanation = std::move(explanation);
        auto entry = std::make_shared<const Entry>(
            Entry{request.request(), hash, Answer(std::in_place_type<Resolution<T>>, std::move(stored))});
        const std::unique_lock lock(mutex_);
        if (entries_.size() >= capacity_) entries_.clear();
        const Kept& kept = *entries_.insert(std::move(entry)).first;
        // A racing thread's earlier answer wins; this caller keeps its own explanation (no cache hit).
        static_cast<Expected<Covered<T>, NotCovered>&>(answer) = std::get<Resolution<T>>(kept->answer);
        return answer;
    }

    void clear() {
        const std::unique_lock lock(mutex_);
        entries_.clear();
    }

private:
    struct Entry {
        ResolveRequest request;
        std::size_t hash;
        Answer answer;
    };
    struct Probe {
        const RequestView& request;
        std::size_t hash;
        std::size_t index;
    };
    using Kept = std::shared_ptr<const Entry>;

    template <class T>
    static constexpr std::size_t index_of() {
        return std::is_same_v<T, ReplacementSpec> ? 0 : 1;
    }
    static RequestView view_of(const ResolveRequest& r) {
        return {r.target, r.model_type, r.slot, r.module_type, r.options, r.strict};
    }

    struct Hash {
        using is_transparent = void;
        std::size_t operator()(const Kept& e) const { return e->hash; }
        std::size_t operator()(const Probe& p) const { return p.hash; }
    };
    struct Equal {
        using is_transparent = void;
        bool operator()(const Kept& a, const Kept& b) const {
            return a->hash == b->hash && a->answer.index() == b->answer.index() &&
                   same_request(a->request, view_of(b->request));
        }
        bool operator()(const Kept& a, const Probe& b) const {
            return a->hash == b.hash && a->answer.index() == b.index && same_request(a->request, b.request);
        }
        bool operator()(const Probe& a, const Kept& b) const { return (*this)(b, a); }
    };

    std::size_t capacity_;
    mutable std::shared_mutex mutex_;
    std::unordered_set<Kept, Hash, Equal> entries_;
};

}  // namespace famspec::detail
