// A generic component class (hyper_parallel.components.*) that replacements construct.
//
// What the core asks, and when:
//   - Registration (under the loader lock, on the loading thread): every member once, to check
//     that the names are complete, the parameters unique and that a source block defines the class.
//   - After the registry is frozen: any thread, concurrently and without a lock, when a replacement
//     constructs this class (keyword checks against the signature, defaults, artifact rendering).
//
// An implementation must answer the same way every time, must not throw, block, print or call back
// into famspec, and must keep every returned view valid for as long as it lives. The ordinary
// implementation is declare::Components::component().
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
