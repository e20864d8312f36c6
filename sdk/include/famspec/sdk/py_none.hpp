// Python's None, as a plugin writes it (`param("context", famspec::none)`) and a PyLiteral holds it.
#pragma once

namespace famspec {
struct PyNone {
    friend bool operator==(PyNone, PyNone) { return true; }
};
inline constexpr PyNone none{};
}  // namespace famspec
