// famspec new-family: writes a ready-to-build out-of-tree family project (CMakeLists.txt, plugin
// source with one example factory, README, a test that runs the README's resolve command) from the
// templates `famspec sync` writes its projects from too (sdk/templates/family/, embedded at build time).
#pragma once

#include <iosfwd>
#include <string>

namespace famspec::cli {

struct NewFamilyOptions {
    std::string name;          // the family's model_type and plugin name: [a-z][a-z0-9_]*
    std::string architecture;  // e.g. AcmeMoeForCausalLM: [A-Za-z][A-Za-z0-9_]*
    std::string directory;     // output directory; empty means ./<name>
};

// 0 written; 1 the directory already exists (even empty) or cannot be written; 2 an invalid name,
// architecture or directory. The project is written to a temporary sibling directory and renamed
// into place, so it appears whole or not at all; a failure leaves nothing behind.
// json: the result, or the error, also as JSON on stdout.
int new_family(const NewFamilyOptions& options, std::ostream& out, std::ostream& err, bool json = false);

}  // namespace famspec::cli
