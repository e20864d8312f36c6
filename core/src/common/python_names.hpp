// What the block renderer needs to know about Python names: which names an import line binds,
// and which names are builtins. Only the forms a declared block may use are accepted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "famspec/expected.hpp"

namespace famspec::detail {

// One name an import line binds, and what it is bound to ("a.b" for a module, "m:x" for a member),
// so that two lines binding one name to different objects can be told apart from a repetition.
struct ImportBinding {
    std::string name;
    std::string bound_to;
};

// The bindings, or why the line is not `import a[.b] [as c], ...` or `from m import x [as y], ...`.
using ImportParse = Expected<std::vector<ImportBinding>, std::string>;

ImportParse parse_import_line(std::string_view line);

bool is_python_builtin(std::string_view name);

}  // namespace famspec::detail
