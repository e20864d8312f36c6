// Everything a family author includes: the declarations (table_declarations.hpp), the compiler that
// makes them one block of tables, FAMSPEC_PLUGIN (tables.hpp), and the words the rows are written
// with. What a host reads of a registered declaration is the core's (core/include/famspec/), not the
// SDK's: a plugin neither sees nor builds those types.
#pragma once

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/argument_binding.hpp"
#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/moe_vocabulary.hpp"
#include "famspec/sdk/parameter_kind.hpp"
#include "famspec/sdk/py_none.hpp"
#include "famspec/sdk/tables.hpp"
