// How a declared parameter is passed, and what kind of default it has: the words a signature's rows
// are written with (table_declarations.hpp, table_layout.hpp). The core's Parameter and Default
// (famspec/parameter.hpp, famspec/default_value.hpp) are the values a host reads.
#pragma once

namespace famspec {

enum class ParameterKind { positional_only, positional_or_keyword, keyword_only };

// Absent (required), a literal, or a Python expression that is not a literal (a function, an object).
enum class DefaultKind { required, literal, expression };

}  // namespace famspec
