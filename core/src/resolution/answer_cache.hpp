// The resolver's one cache: the answer to a request asked before, found from the ResolveRequest as it
// was asked (entry point, slot, strictness, target, model_type, module_type, options), before any
// family lookup or explanation. A hit allocates nothing: it copies the answer's shared pointers.
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
#include <type_traits>
#include <unordered_set>
#include <variant>

#include "common/dotted_path.hpp"
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

// The parts of a request its answer reads besides the slot, target, options and strictness, so that
// one answer serves every request that differs only in the others: a component named directly reads
// no family (one entry, one spec object, for every model_type), and a strategy no module_type.
struct KeyParts {
    bool model_type = true;
    bool module_type = true;
};

template <class T>
KeyParts key_parts(const ResolveRequest& request) {
    if constexpr (std::is_same_v<T, StrategySpec>) return {.model_type = true, .module_type = false};
    return {.model_type = !is_component_path(request.target), .module_type = true};
}

inline std::size_t request_hash(const ResolveRequest& r, KeyParts parts) {
    std::size_t hash = 0xcbf29ce484222325ULL;
    const auto mix = [&hash](std::size_t h) { hash = (hash ^ h) * 0x100000001b3ULL; };
    const auto mix_optional = [&mix](const std::optional<std::string>& part, bool read) {
        // An absent part and any string (even an empty one) hash apart.
        mix(read && part ? std::hash<std::string_view>{}(*part) : 0x9e3779b97f4a7c15ULL);
    };
    mix(static_cast<std::size_t>(r.slot) * 2 + (r.strict ? 1 : 0));
    mix(std::hash<std::string_view>{}(r.target));
    mix_optional(r.model_type, parts.model_type);
    mix_optional(r.module_type, parts.module_type);
    for (const auto& [name, value] : r.options) {
        mix(std::hash<std::string_view>{}(name));
        mix(value.value().index());
    }
    return hash;
}

// `kept` holds only the parts its answer reads (the others are empty); `asked` is compared by them.
inline bool same_request(const ResolveRequest& kept, const ResolveRequest& asked, KeyParts parts) {
    return kept.slot == asked.slot && kept.strict == asked.strict && kept.target == asked.target &&
           (!parts.model_type || kept.model_type == asked.model_type) &&
           (!parts.module_type || kept.module_type == asked.module_type) && same_options(kept.options, asked.options);
}

class AnswerCache {
public:
    // The answer for a request: which entry point answered is part of the key (its index here).
    using Answer = std::variant<Resolution<ReplacementSpec>, Resolution<StrategySpec>>;

    explicit AnswerCache(std::size_t capacity) : capacity_(capacity) {}

    // The answer kept for `request` at the entry point of T, found without copying the request; on a
    // miss, `resolve(request)`, kept.
    template <class T, class Resolve>
    Resolution<T> answer(const ResolveRequest& request, Resolve resolve) {
        const KeyParts parts = key_parts<T>(request);
        const Probe probe{request, parts, request_hash(request, parts), index_of<T>()};
        if (auto hit = find<T>(probe)) return *std::move(hit);
        return remember<T>(probe, resolve(request));
    }

    void clear() {
        const std::unique_lock lock(mutex_);
        entries_.clear();
    }

private:
    struct Entry {
        ResolveRequest request;  // the parts its answer reads
        std::size_t hash;
        Answer answer;
    };
    struct Probe {
        const ResolveRequest& request;
        KeyParts parts;
        std::size_t hash;
        std::size_t index;
    };
    using Kept = std::shared_ptr<const Entry>;

    template <class T>
    static constexpr std::size_t index_of() {
        return std::is_same_v<T, ReplacementSpec> ? 0 : 1;
    }

    template <class T>
    std::optional<Resolution<T>> find(const Probe& probe) const {
        const std::shared_lock lock(mutex_);
        const auto it = entries_.find(probe);
        if (it == entries_.end()) return std::nullopt;
        return std::get<Resolution<T>>((*it)->answer);
    }

    // Keeps `answer`, with an explanation that says it came from the cache, and returns what is kept:
    // `answer`, or the answer a racing thread stored first.
    template <class T>
    Resolution<T> remember(const Probe& probe, Resolution<T> answer) {
        if (std::holds_alternative<Broken>(answer.state) || capacity_ == 0) return answer;
        Resolution<T> stored = answer;
        auto explanation = std::make_shared<Explanation>(*answer.explanation);
        explanation->cache_hit = true;
        stored.explanation = std::move(explanation);
        ResolveRequest key = probe.request;
        if (!probe.parts.model_type) key.model_type.reset();
        if (!probe.parts.module_type) key.module_type.reset();
        auto entry = std::make_shared<const Entry>(
            Entry{std::move(key), probe.hash, Answer(std::in_place_type<Resolution<T>>, std::move(stored))});
        const std::unique_lock lock(mutex_);
        if (entries_.size() >= capacity_) entries_.clear();
        const Resolution<T>& kept = std::get<Resolution<T>>((*entries_.insert(std::move(entry)).first)->answer);
        // A racing thread's earlier answer wins; this caller keeps its own explanation (no cache hit).
        answer.state = kept.state;
        answer.diagnostics = kept.diagnostics;
        return answer;
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
                   same_request(a->request, b->request, KeyParts{});
        }
        bool operator()(const Kept& a, const Probe& b) const {
            return a->hash == b.hash && a->answer.index() == b.index && same_request(a->request, b.request, b.parts);
        }
        bool operator()(const Probe& a, const Kept& b) const { return (*this)(b, a); }
    };

    std::size_t capacity_;
    mutable std::shared_mutex mutex_;
    std::unordered_set<Kept, Hash, Equal> entries_;
};

}  // namespace famspec::detail
