// A family's @module_replacement factory as the registry holds it: the replace_module target and what
// it constructs. The core's copy of a family's `factories` row; an author writes tables::Factory.
//
// Checked at registration: the target names its family, each bound keyword names one of its
// parameters, and a handed-over function is one its family declares. Read afterwards when a plan's
// replace_module target names this factory (ReplacementSpec building, option checks, rendering).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "famspec/construction.hpp"
#include "famspec/parameter.hpp"

namespace famspec {

struct ReplacementFactory {
    std::string family{};  // model_type of the family that ships it
    std::string target{};  // full dotted _target_ path
    // The factory's own signature: module, module_fqn and context, then its static options.
    std::vector<Parameter> parameters{};
    // What it constructs; empty for a runtime-only factory that has nothing to sink.
    std::optional<Construction> construction{};
    // Why a runtime-only factory cannot be sunk, e.g. "builds through GroupedExperts.from_module".
    std::string runtime_only_reason{};

    friend bool operator==(const ReplacementFactory&, const ReplacementFactory&) = default;
};

}  // namespace famspec
