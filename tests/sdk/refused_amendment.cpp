// Must not compile: an amendment that adds to no family of its plugin (or, with
// FAMSPEC_TEST_AMENDED_ARCHITECTURE, one that names an architecture). The tests "sdk: an amendment
// ..." expect the compiler to stop here and to name the mistake.
#include "famspec/sdk/tables.hpp"

#ifdef FAMSPEC_TEST_AMENDED_ARCHITECTURE
#define FAMSPEC_TEST_AMENDS "refused", .architecture = "OtherForCausalLM"
#else
#define FAMSPEC_TEST_AMENDS "refused_typo"
#endif

FAMSPEC_PLUGIN("refused", "1.0.0", "an amendment of nothing",
               Plugin{.families = {{.model_type = "refused", .architecture = "RefusedForCausalLM"}},
                      .amendments = {{.model_type = FAMSPEC_TEST_AMENDS, .aliases = {"refused-x"}}}});
