// Crashes while the library is being opened, before any famspec code could look at it. Only a child
// process may load it (famspec verify); never load it into a test process.
#include <csignal>
#include <cstdio>

#include "famspec/sdk/tables.hpp"

namespace {
// SIG_DFL first: a sanitizer runtime would otherwise catch the fault and turn it into exit 1.
[[maybe_unused]] const int crash_on_load = [] {
    std::fputs("segfaults_in_static_init: about to fault\n", stderr);  // what verify shows of a crash
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
    return 0;
}();
}  // namespace

FAMSPEC_PLUGIN("segfaults_in_static_init", "1.0.0", "famspec test fixture",
               Plugin{.families = {
                          {.model_type = "segfaults_in_static_init",
                           .architecture = "segfaults_in_static_initForCausalLM",
                           .factories = {{.target = "hyper_parallel.models.segfaults_in_static_init.adapter."
                                                    "replacements.replace_norm",
                                          .constructs = wraps("RMSNorm", "hyper_parallel.components.modules")}}}}});
