// plugins/qwen3/plugin.cpp, which `famspec sync` writes in the table form: compiled into
// sdk_table_tests, whose tests read its block back, into the qwen3_tables plugin file the loader test
// reads.
#include "../../plugins/qwen3/plugin.cpp"
