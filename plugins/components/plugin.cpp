// The generic components under hyper_parallel.components.modules that replacements construct.
// Only GQAAttention is ever rendered into an artifact, so only it declares source blocks.
#include "components_assets.hpp"
#include "famspec/sdk/tables.hpp"

namespace {
// The wrap signature most components share: Cls(*, module, module_fqn='', context=None).
using namespace famspec::tables;
constexpr Parameter wrapper[] = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none)};
}  // namespace

FAMSPEC_PLUGIN(
    "components", "1.0.0", "Generic components of hyper_parallel.components.modules",
    Plugin{.components = {
               {.package = "hyper_parallel.components.modules",
                .components = {
                    {.name = "RMSNorm",
                     .submodule = "rms_norm",
                     .signature = {param("hidden_size", famspec::none), param("eps", 1e-05), kw_only,
                                   param("module", famspec::none), param("module_fqn", ""),
                                   param("context", famspec::none)},
                     .where = FAMSPEC_HERE},
                    {.name = "OffsetRMSNorm", .submodule = "rms_norm", .signature = wrapper, .where = FAMSPEC_HERE},
                    {.name = "GQAAttention",
                     .submodule = "gqa_attention",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("attention_interface", expression("npu_fusion_attention_forward"))},
                     .source =
                         {
                             {.defines = {"rotate_half"},
                              .needs = {"torch"},
                              .imports = {"import torch"},
                              .text = famspec_assets::rotate_half},
                             {.defines = {"_apply_gqa_rope"},
                              .needs = {"torch", "rotate_half"},
                              .imports = {"import torch"},
                              .text = famspec_assets::apply_gqa_rope},
                             {.defines = {"_projections_can_fuse"},
                              .needs = {"nn"},
                              .imports = {"from torch import nn"},
                              .text = famspec_assets::projections_can_fuse},
                             {.defines = {"GQAAttention"},
                              .needs = {"nn", "torch", "InterleaveQKV", "npu_fusion_attention_forward",
                                        "_apply_gqa_rope", "_projections_can_fuse"},
                              .imports = {"import torch", "from torch import nn",
                                          "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV",
                                          "from hyper_parallel.components.functional.attention import "
                                          "npu_fusion_attention_forward"},
                              .text = famspec_assets::gqa_attention},
                         },
                     .where = FAMSPEC_HERE},
                    {.name = "GroupedExperts",
                     .submodule = "grouped_experts",
                     .signature = wrapper,
                     .where = FAMSPEC_HERE},
                    {.name = "SwiGLUMLP", .submodule = "swiglu_mlp", .signature = wrapper, .where = FAMSPEC_HERE},
                    // The chunked variants take their chunk size as a required keyword a plan must set.
                    {.name = "ChunkedSwiGLUMLP",
                     .submodule = "chunked_swiglu_mlp",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("chunk_size")},
                     .where = FAMSPEC_HERE},
                    {.name = "HeadChunkGQAAttention",
                     .submodule = "head_chunk_gqa_attention",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("head_chunk_size"), param("expand_kv_heads", false),
                                   param("attention_interface", expression("npu_fusion_attention_forward"))},
                     .where = FAMSPEC_HERE},
                    {.name = "MLAAttention",
                     .submodule = "mla_attention",
                     .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none),
                                   param("attention_interface", expression("npu_fusion_attention_forward"))},
                     .where = FAMSPEC_HERE},
                    {.name = "DSAAttention", .submodule = "dsa_attention", .signature = wrapper, .where = FAMSPEC_HERE},
                    {.name = "DeepseekV32DSAAttention",
                     .submodule = "dsa_attention",
                     .signature = wrapper,
                     .where = FAMSPEC_HERE},
                    {.name = "EngramModule", .submodule = "engram", .signature = wrapper, .where = FAMSPEC_HERE},
                    {.name = "PipelinedMhcModule", .submodule = "mhc", .signature = wrapper, .where = FAMSPEC_HERE},
                    // A registered module replacement whose module may also be passed positionally. It takes no
                    // static option: use_fused_ops is gone from its constructor, so a plan that still writes it
                    // gets an ignored_option and the option is not rendered.
                    {.name = "SharedCompressedDSAAttention",
                     .submodule = "shared_compressed_dsa_attention",
                     .signature = {param("module"), param("module_fqn", ""), param("context", famspec::none)},
                     .where = FAMSPEC_HERE},
                    // Not a module replacement: it takes no module, so a direct target naming it is not covered.
                    {.name = "NgramHashMapping",
                     .submodule = "engram",
                     .signature = {param("assets"), param("layer_id")},
                     .where = FAMSPEC_HERE},
                }}}});
