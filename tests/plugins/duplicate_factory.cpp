// Declares the same factory target twice: registration must be rejected with both declaration sites.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("duplicate_factory", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    famspec::declare::Family family{"duplicate_factory", "duplicate_factoryForCausalLM"};
    const std::string target = "hyper_parallel.models.duplicate_factory.adapter.replacements.replace_norm";
    family.factory(target).wraps("RMSNorm", "hyper_parallel.components.modules");
    family.factory(target).wraps("LayerNorm", "hyper_parallel.components.modules");
    family.register_into(registrar);
}
