// Never finishes loading: famspec verify must give up after its --timeout and kill the child.
#include <unistd.h>

#include "famspec/sdk.hpp"

namespace {
// Bounded, so that a child orphaned by a crashed test run still goes away on its own.
[[maybe_unused]] const unsigned hang_on_load = ::sleep(60);
}  // namespace

FAMSPEC_PLUGIN("hangs_in_static_init", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    famspec::declare::Family family{"hangs_in_static_init", "hangs_in_static_initForCausalLM"};
    family.register_into(registrar);
}
