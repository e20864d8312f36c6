// The generic components under hyper_parallel.components.modules that replacements construct.
// Only GQAAttention is ever rendered into an artifact, so only it declares source blocks.
#include "components_assets.hpp"
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("components", "1.0.0", "Generic components of hyper_parallel.components.modules")
(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    using famspec::none;
    namespace py = famspec_assets;

    // The wrap signature most components share: Cls(*, module, module_fqn='', context=None).
    const Signature wrapper = {kw_only, param("module"), param("module_fqn", ""), param("context", none)};

    Components modules{"hyper_parallel.components.modules"};
    modules.component({
        .name = "RMSNorm",
        .submodule = "rms_norm",
        .signature = {param("hidden_size", none), param("eps", 1e-05), kw_only, param("module", none),
                      param("module_fqn", ""), param("context", none)},
    });
    modules.component({.name = "OffsetRMSNorm", .submodule = "rms_norm", .signature = wrapper});
    modules.component({
        .name = "GQAAttention",
        .submodule = "gqa_attention",
        .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", none),
                      param("attention_interface", expression("npu_fusion_attention_forward"))},
        .source =
            {
                {.defines = {"rotate_half"},
                 .needs = {"torch"},
                 .imports = {"import torch"},
                 .text = std::string(py::rotate_half)},
                {.defines = {"_apply_gqa_rope"},
                 .needs = {"torch", "rotate_half"},
                 .imports = {"import torch"},
                 .text = std::string(py::apply_gqa_rope)},
                {.defines = {"_projections_can_fuse"},
                 .needs = {"nn"},
                 .imports = {"from torch import nn"},
                 .text = std::string(py::projections_can_fuse)},
                {.defines = {"GQAAttention"},
                 .needs = {"nn", "torch", "InterleaveQKV", "npu_fusion_attention_forward", "_apply_gqa_rope",
                           "_projections_can_fuse"},
                 .imports = {"import torch", "from torch import nn",
                             "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV",
                             "from hyper_parallel.components.functional.attention import npu_fusion_attention_forward"},
                 .text = std::string(py::gqa_attention)},
            },
    });
    modules.component({.name = "GroupedExperts", .submodule = "grouped_experts", .signature = wrapper});
    modules.component({.name = "SwiGLUMLP", .submodule = "swiglu_mlp", .signature = wrapper});
    // The chunked variants take their chunk size as a required keyword a plan must set.
    modules.component({
        .name = "ChunkedSwiGLUMLP",
        .submodule = "chunked_swiglu_mlp",
        .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", none), param("chunk_size")},
    });
    modules.component({
        .name = "HeadChunkGQAAttention",
        .submodule = "head_chunk_gqa_attention",
        .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", none),
                      param("head_chunk_size"), param("expand_kv_heads", false),
                      param("attention_interface", expression("npu_fusion_attention_forward"))},
    });
    modules.component({
        .name = "MLAAttention",
        .submodule = "mla_attention",
        .signature = {kw_only, param("module"), param("module_fqn", ""), param("context", none),
                      param("attention_interface", expression("npu_fusion_attention_forward"))},
    });
    modules.component({.name = "DSAAttention", .submodule = "dsa_attention", .signature = wrapper});
    modules.component({.name = "DeepseekV32DSAAttention", .submodule = "dsa_attention", .signature = wrapper});
    modules.component({.name = "EngramModule", .submodule = "engram", .signature = wrapper});
    modules.component({.name = "PipelinedMhcModule", .submodule = "mhc", .signature = wrapper});
    // A registered module replacement whose module may also be passed positionally. It takes no
    // static option: use_fused_ops is gone from its constructor, so a plan that still writes it
    // gets an ignored_option and the option is not rendered.
    modules.component({
        .name = "SharedCompressedDSAAttention",
        .submodule = "shared_compressed_dsa_attention",
        .signature = {param("module"), param("module_fqn", ""), param("context", none)},
    });
    // Not a module replacement: it takes no module, so a direct target naming it is not covered.
    modules.component({
        .name = "NgramHashMapping",
        .submodule = "engram",
        .signature = {param("assets"), param("layer_id")},
    });
    modules.register_into(registrar);
}
