// A misuse from docs/misuses.md: the same factory target declared twice. The plugin builds, and
// famspec refuses it as a whole at load time (tests/package/docs_test.cpp checks the message).
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("docs_duplicate", "1.0.0", "registers a factory twice")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    // [snippet:duplicate]
    Family family{"docs_dup", "DocsDupForCausalLM"};
    const std::string target = "hyper_parallel.models.docs_dup.adapter.replacements.replace_norm";
    family.factory(target).runtime_only("built at runtime");
    family.factory(target).runtime_only("built at runtime");  // the same target again
    family.register_into(registrar);
    // [/snippet:duplicate]
}
