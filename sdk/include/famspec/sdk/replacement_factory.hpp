// A family's @module_replacement factory: the replace_module target and what it constructs.
//
// Checked at registration: the factory takes module, module_fqn and context, each bound keyword names
// one of its parameters, and a handed-over function is one its family declares. Asked afterwards when
// a plan's replace_module target names this factory (ReplacementSpec building, option checks,
// rendering). The contract every interface keeps (threads, no throwing, lifetimes) is in
// famspec/sdk/interfaces.hpp. The core implements it from a plugin's table row (`factories`
// of a family, table_declarations.hpp).
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec {

class ReplacementFactory {
public:
    virtual ~ReplacementFactory() = default;  // inline: see FamilyAdapter

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
