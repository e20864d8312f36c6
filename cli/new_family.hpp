// famspec new-family: writes a ready-to-build out-of-tree family project (CMakeLists.txt, plugin
// source with one example factory, README), in the shape of examples/out-of-tree-family.
#pragma once

#include <iosfwd>
#include <string>

namespace famspec::cli {

struct NewFamilyOptions {
    std::string name;          // the family's model_type and plugin name: [a-z][a-z0-9_]*
    std::string architecture;  // e.g. AcmeMoeForCausalLM: [A-Za-z][A-Za-z0-9_]*
    std::string directory;     // output directory; empty means ./<name>
};

// 0 written; 1 the directory exists and is not empty, or cannot be written; 2 an invalid name or
// architecture. Nothing is written unless the arguments are valid and the directory is usable.
int new_family(const NewFamilyOptions& options, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
