// A plugin with code in it: a static initialiser that leaves a mark (the file named by the
// environment variable ZOO_MARK_FILE, if set) and then faults. famspec reads a plugin, never loads
// it, so no command, C++ call or Python call may run this: the mark stays absent and nothing crashes,
// while the plugin's declarations are answered.
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "famspec/sdk/tables.hpp"

namespace {
[[maybe_unused]] const int mark_and_fault = [] {
    if (const char* path = std::getenv("ZOO_MARK_FILE")) {
        if (std::FILE* mark = std::fopen(path, "w")) {
            std::fputs("code_never_runs: its static initialiser ran\n", mark);
            std::fclose(mark);
        }
    }
    std::signal(SIGSEGV, SIG_DFL);  // past a sanitizer's handler
    std::raise(SIGSEGV);
    return 0;
}();
}  // namespace

FAMSPEC_PLUGIN("code_never_runs", "1.0.0", "famspec test fixture",
               Plugin{.families = {{.model_type = "code_never_runs",
                                    .architecture = "CodeNeverRunsForCausalLM",
                                    .factories = {{.target = "hyper_parallel.models.code_never_runs.adapter."
                                                             "replacements.replace_norm",
                                                   .constructs = wraps("RMSNorm", "hyper_parallel.components.modules"),
                                                   .arguments = {bind("module_fqn"), bind("context")}}}}}});
