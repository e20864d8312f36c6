// A generic component class (hyper_parallel.components.*) that replacements construct, as the
// registry holds it. The core's copy of a `components` row; an author writes tables::Component.
//
// Checked at registration: the names are complete, the parameters unique and a source block defines
// the class. Read afterwards when a replacement constructs this class (keyword checks against the
// signature, defaults, artifact rendering).
#pragma once

#include <string>
#include <vector>

#include "famspec/parameter.hpp"
#include "famspec/source_block.hpp"

namespace famspec {

struct Component {
    std::string name{};                   // class name, e.g. "GQAAttention"
    std::string import_module{};          // the package that re-exports it
    std::string defining_module{};        // the submodule that defines it
    std::vector<Parameter> parameters{};  // constructor signature
    // The class block and its helpers, for rendering into an artifact; empty when not renderable.
    std::vector<SourceBlock> source{};

    friend bool operator==(const Component&, const Component&) = default;
};

}  // namespace famspec
