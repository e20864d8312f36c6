// A generic component class (hyper_parallel.components.*) that replacements construct.
#pragma once

#include <span>
#include <string_view>

#include "famspec/sdk/export.hpp"
#include "famspec/sdk/parameter.hpp"
#include "famspec/sdk/source_block.hpp"

namespace famspec {

class FAMSPEC_API Component {
public:
    virtual ~Component();

    virtual std::string_view name() const = 0;                  // class name, e.g. "GQAAttention"
    virtual std::string_view import_module() const = 0;         // the package that re-exports it
    virtual std::string_view defining_module() const = 0;       // the submodule that defines it
    virtual std::span<const Parameter> parameters() const = 0;  // constructor signature
    // The class block and its helpers, for rendering into an artifact; empty when not renderable.
    virtual std::span<const SourceBlock> source() const = 0;
};

}  // namespace famspec
