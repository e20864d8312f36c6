// Never finishes loading: famspec verify must give up after its --timeout and kill the child, and a
// signal sent to famspec while it loads this must end famspec and the process loading it. The
// loading process writes its pid to $FAMSPEC_TEST_LOADING_PIDFILE first, so a test knows when.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "famspec/sdk/tables.hpp"

namespace {
// Bounded, so that a child orphaned by a crashed test run still goes away on its own.
[[maybe_unused]] const unsigned hang_on_load = [] {
    if (const char* file = std::getenv("FAMSPEC_TEST_LOADING_PIDFILE")) {
        const std::string temporary = std::string(file) + ".part";
        std::ofstream(temporary) << ::getpid() << "\n";
        std::rename(temporary.c_str(), file);  // whole, or not there
    }
    return ::sleep(60);
}();
}  // namespace

FAMSPEC_PLUGIN("hangs_in_static_init", "1.0.0", "famspec test fixture",
               Plugin{.families = {
                          {.model_type = "hangs_in_static_init", .architecture = "hangs_in_static_initForCausalLM"}}});
