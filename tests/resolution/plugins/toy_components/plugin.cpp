// Generic components for the toy families, one per constructor shape the resolver must handle.
#include "famspec/sdk/tables.hpp"

FAMSPEC_PLUGIN(
    "toy_components", "0.1.0", "Test components for the toy families",
    Plugin{.components = {
               {.package = "hyper_parallel.components.toy",
                .components = {
                    {.name = "ToyNorm",
                     .submodule = "norms",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("eps", 1e-06)},
                     .where = FAMSPEC_HERE},
                    {.name = "ToyExperts",
                     .submodule = "experts",
                     .signature = {param("module", famspec::none), param("module_fqn", ""),
                                   param("context", famspec::none), param("use_fused_ops", true)},
                     .where = FAMSPEC_HERE},
                    // Takes module but has no module_fqn: a factory passing module_fqn cannot be sunk.
                    {.name = "ToyNoFqn",
                     .submodule = "norms",
                     .signature = {kw_only, param("module")},
                     .where = FAMSPEC_HERE},
                    // No module at all: a direct target naming it is not covered.
                    {.name = "ToyTable",
                     .submodule = "tables",
                     .signature = {param("vocab_size"), param("max_ngram", 3)},
                     .where = FAMSPEC_HERE},
                    // A default that is a function, not a literal.
                    {.name = "ToyAttention",
                     .submodule = "attention",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("attention_interface", expression("default_attention_kernel"))},
                     .source = {{.defines = {"ToyAttention"},
                                 .needs = {"nn"},
                                 .imports = {"import torch.nn as nn"},
                                 .text = "class ToyAttention(nn.Module):\n    pass\n"}},
                     .where = FAMSPEC_HERE},
                }}}});
