// Checks a rendered artifact with the real Python: it must parse, and every module-scope name it
// reads must be bound in it (defined, imported) or be a builtin.
#pragma once

#include <string>
#include <vector>

namespace famspec::test {

struct PythonCheck {
    bool parsed = false;
    std::vector<std::string> unbound;  // sorted; empty when every name is bound
    std::string error;                 // what python3 reported when it did not parse
};

PythonCheck check_python(const std::string& text);

// The import lines followed by the source, as the artifact holds them.
std::string artifact(const std::vector<std::string>& imports, const std::string& source);

}  // namespace famspec::test
