// A plugin that declares nothing: it loads, and both famspec-manifest (at build time) and verify
// warn about it.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("registers_nothing", "1.0.0", "famspec test fixture", Plugin{});
