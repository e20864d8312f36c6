// The toy family registered differently: the same target now builds another component. A result
// computed from the first registration must never be reused for this one.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("toy_reregistered", "0.2.0", "Toy family, re-registered")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    Family toy{"toy", "ToyForCausalLM"};
    toy.factory("hyper_parallel.models.toy.adapter.replacements.replace_toy_norm")
        .wraps("ToyExperts", "hyper_parallel.components.toy")
        .bind("module_fqn")
        .bind("context");
    toy.register_into(registrar);
}
