// A family's @module_replacement factory: the replace_module target and what it constructs.
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec {

class FAMSPEC_API ReplacementFactory {
public:
    virtual ~ReplacementFactory();

    virtual std::string_view family() const = 0;  // model_type of the family that ships it
    virtual std::string_view target() const = 0;  // full dotted _target_ path
    // The factory's own signature: module, module_fqn, context and any static options.
    virtual std::span<const Parameter> parameters() const = 0;
    // What it constructs, or nullptr for a runtime-only factory that has nothing to sink.
    virtual const Construction* construction() const = 0;
    // Why a runtime-only factory cannot be sunk, e.g. "builds through GroupedExperts.from_module".
    virtual std::string_view runtime_only_reason() const = 0;
};

}  // namespace famspec
