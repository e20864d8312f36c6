// An ordinary shared library (not a plugin) that happens to export a famspec descriptor; the
// entry_from_dependency fixture links it and defines no descriptor of its own.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("entry_provider", "1.0.0", "famspec test fixture", Plugin{});

extern "C" __attribute__((visibility("default"))) int zoo_entry_provider_value() { return 7; }
