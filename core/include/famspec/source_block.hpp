// A top-level block of Python source that the component renderer can place into an artifact: the
// registry's copy of a source-block row (tables::SourceBlock is what an author writes).
#pragma once

#include <string>
#include <vector>

namespace famspec {

struct SourceBlock {
    // Defaults, so that a designated initializer may leave fields out.
    std::vector<std::string> defines{};  // top-level names the block binds (a def, a class, a constant)
    std::vector<std::string> needs{};    // module-scope names it reads that it does not bind itself
    std::vector<std::string> imports{};  // import lines it needs; the names they bind count as provided
    std::string text{};

    friend bool operator==(const SourceBlock&, const SourceBlock&) = default;
};

}  // namespace famspec
