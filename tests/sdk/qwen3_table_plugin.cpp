// plugins/qwen3/plugin.cpp, which `famspec sync` writes in the table form: the source of the
// qwen3_tables plugin file the loader test reads, and included by table_tests.cpp, whose tests read
// its block back.
#include "../../plugins/qwen3/plugin.cpp"
