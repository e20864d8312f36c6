// A generic component class (hyper_parallel.components.*) that replacements construct.
//
// Checked at registration: the names are complete, the parameters unique and a source block defines
// the class. Asked afterwards when a replacement constructs this class (keyword checks against the
// signature, defaults, artifact rendering). The contract every interface keeps (threads, no throwing,
// lifetimes) is in famspec/sdk/interfaces.hpp. The core implements it from a
// plugin's table row (`components`, table_declarations.hpp).
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/parameter.hpp"
#include "famspec/sdk/source_block.hpp"

namespace famspec {

class Component {
public:
    virtual ~Component() = default;  // inline: see FamilyAdapter

    virtual std::string_view name() const = 0;                  // class name, e.g. "GQAAttention"
    virtual std::string_view import_module() const = 0;         // the package that re-exports it
    virtual std::string_view defining_module() const = 0;       // the submodule that defines it
    virtual std::span<const Parameter> parameters() const = 0;  // constructor signature
    // The class block and its helpers, for rendering into an artifact; empty when not renderable.
    virtual std::span<const SourceBlock> source() const = 0;
};

}  // namespace famspec
