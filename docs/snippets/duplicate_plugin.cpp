// A misuse from docs/misuses.md: the same factory target declared twice. The plugin builds, and
// famspec refuses it as a whole at load time (tests/package/docs_test.cpp checks the message).
#include "famspec/sdk/tables.hpp"

// The layout is the one docs/misuses.md quotes.
// clang-format off
FAMSPEC_PLUGIN("docs_duplicate", "1.0.0", "registers a factory twice", Plugin{
    // [snippet:duplicate]
    .families = {{
        .model_type = "docs_dup",
        .architecture = "DocsDupForCausalLM",
        .where = FAMSPEC_HERE,
        .factories = {
            {.target = "hyper_parallel.models.docs_dup.adapter.replacements.replace_norm",
             .runtime_only = "built at runtime",
             .where = FAMSPEC_HERE},
            {.target = "hyper_parallel.models.docs_dup.adapter.replacements.replace_norm",  // the same target again
             .runtime_only = "built at runtime",
             .where = FAMSPEC_HERE},
        },
    }},
    // [/snippet:duplicate]
});
// clang-format on
