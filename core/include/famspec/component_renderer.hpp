// Renders a component class into an artifact together with the family function handed to it.
//
// Contract (the core's side of "rendered components"):
//   - inputs: the component (its source blocks: the class block and its helpers), the family's
//     interface blocks (the handed-over function and its helpers) and the function's name;
//   - the roots are the interface function and the component class, in that order; every block a
//     root needs is emitted before it (dependency-first), each block once;
//   - a needed name must be defined by an emitted block or bound by one of its import lines;
//     otherwise rendering fails with a message naming the missing name and the class;
//   - `imports` is every import line of the emitted blocks, de-duplicated and sorted;
//   - `source` is the blocks joined by two blank lines, with a header comment naming the rendered
//     class placed directly before the class block;
//   - the output depends only on the inputs (deterministic).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/component.hpp"
#include "famspec/expected.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/source_block.hpp"

namespace famspec {

struct RenderedComponent {
    std::vector<std::string> imports;
    std::string source;
};

// The rendered component, or why it cannot be rendered.
using RenderResult = Expected<RenderedComponent, std::string>;

class FAMSPEC_API ComponentRenderer {
public:
    virtual ~ComponentRenderer();
    virtual RenderResult render(const Component& component, std::string_view interface_function,
                                std::span<const SourceBlock> interface_blocks) const = 0;
};

// The renderer the resolver uses unless it is given another.
FAMSPEC_API const ComponentRenderer& block_renderer();

}  // namespace famspec
