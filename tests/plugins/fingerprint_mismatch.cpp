// Claims another compiler in its build fingerprint (and so does its manifest): the loader must
// refuse it before opening it, naming the field that differs.
#define FAMSPEC_PLUGIN_FINGERPRINT \
    "compiler=gcc-1;cxx11-abi=1;debug-containers=0;assertions=0;asan=none;tsan=none;famspec=0"

#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("fingerprint_mismatch", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    famspec::declare::Family family{"fingerprint_mismatch", "fingerprint_mismatchForCausalLM"};
    family.register_into(registrar);
}
