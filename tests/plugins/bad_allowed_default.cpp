// A CP wrapper option whose default is not one of the values its Literal[...] type allows:
// registration must be rejected, naming the wrapper and the option.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN("bad_allowed_default", "1.0.0", "famspec test fixture",
               Plugin{.families = {
                          {.model_type = "bad_allowed_default",
                           .architecture = "BadAllowedDefaultForCausalLM",
                           .cp_wrappers = {{.target = "hyper_parallel.models.bad_allowed_default.adapter.context_"
                                                      "parallel.cp_wrapper",
                                            .options = {kw_only, param("backend", "xla", one_of{"npu", "sdpa"})}}}}}});
