// A value or the error that stands in its place: the shape of every fallible answer famspec gives.
// GCC 12's library has no std::expected; this is the small part of it famspec uses.
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace famspec {

template <class E>
struct Unexpected {
    E error;
};

template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& error) {
    return {std::forward<E>(error)};
}

template <class T, class E>
class Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit, as std::expected
    Expected(Unexpected<E> error) : state_(std::in_place_index<1>, std::move(error.error)) {}  // NOLINT

    bool has_value() const { return state_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    // Precondition: has_value() (value) or !has_value() (error).
    const T& value() const& { return std::get<0>(state_); }
    T& value() & { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    const E& error() const& { return std::get<1>(state_); }
    E& error() & { return std::get<1>(state_); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

private:
    std::variant<T, E> state_;
};

}  // namespace famspec
