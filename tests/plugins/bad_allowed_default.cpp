// A CP wrapper option whose default is not one of the values its Literal[...] type allows:
// registration must be rejected, naming the wrapper and the option.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("bad_allowed_default", "1.0.0", "famspec test fixture")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    Family family{"bad_allowed_default", "BadAllowedDefaultForCausalLM"};
    family.cp_wrapper("hyper_parallel.models.bad_allowed_default.adapter.context_parallel.cp_wrapper",
                      {kw_only, param("backend", "xla", one_of{"npu", "sdpa"})});
    family.register_into(registrar);
}
