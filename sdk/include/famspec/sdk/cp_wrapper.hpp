// A context-parallel attention wrapper a family ships for the inner_wrapper slot.
//
// What the core asks, and when:
//   - Registration (under the loader lock, on the loading thread): every member once, to check
//     the target path against its family and that option names are unique.
//   - After the registry is frozen: any thread, concurrently and without a lock, when a plan's
//     inner_wrapper target names this wrapper (StrategySpec building, option checks).
//
// An implementation must answer the same way every time, must not throw, block, print or call back
// into famspec, and must keep every returned view valid for as long as it lives. The ordinary
// implementation is declare::Family::cp_wrapper().
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/parameter.hpp"

namespace famspec {

class CpWrapper {
public:
    virtual ~CpWrapper() = default;  // inline: see FamilyAdapter

    virtual std::string_view family() const = 0;
    virtual std::string_view target() const = 0;  // full dotted _target_ path
    virtual std::span<const Parameter> options() const = 0;
};

}  // namespace famspec
