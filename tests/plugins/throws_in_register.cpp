// Throws from its register function: the loader must report the register stage and go on with the
// other plugins of the directory.
#include <stdexcept>

#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("throws_in_register", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    famspec::declare::Family family{"throws_in_register", "throws_in_registerForCausalLM"};
    family.register_into(registrar);
    throw std::runtime_error("zoo: registration failed on purpose");
}
