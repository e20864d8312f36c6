// A context-parallel attention wrapper a family ships for the inner_wrapper slot, as the registry
// holds it. The core's copy of a family's `cp_wrappers` row; an author writes tables::CpWrapper.
//
// Checked at registration: the target path against its family, and option names unique. Read
// afterwards when a plan's inner_wrapper target names this wrapper (StrategySpec building, option
// checks).
#pragma once

#include <string>
#include <vector>

#include "famspec/parameter.hpp"

namespace famspec {

struct CpWrapper {
    std::string family{};              // model_type of the family that ships it
    std::string target{};              // full dotted _target_ path
    std::vector<Parameter> options{};  // static options a plan may set

    friend bool operator==(const CpWrapper&, const CpWrapper&) = default;
};

}  // namespace famspec
