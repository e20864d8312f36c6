// A context-parallel attention wrapper a family ships for the inner_wrapper slot.
//
// Checked at registration: the target path against its family, and option names unique. Asked
// afterwards when a plan's inner_wrapper target names this wrapper (StrategySpec building, option
// checks). The contract every interface keeps (threads, no throwing, lifetimes) is in
// famspec/sdk/interfaces.hpp. The core implements it from a
// plugin's table row (`cp_wrappers` of a family, table_declarations.hpp).
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
