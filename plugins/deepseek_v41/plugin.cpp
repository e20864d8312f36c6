// DeepSeek-V4.1: the shared compressed DSA attention factory, its shared-attention CP wrapper and
// two EP compute functions that are not MoE archetypes. Its engram and mHC modules are named in plans as direct
// components.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("deepseek_v41", "1.0.0", "DeepSeek-V4.1 family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.deepseek_v41.adapter.";
    const std::string expert_parallel = adapter + "distributed.expert_parallel.";

    Family deepseek{"deepseek_v41", "DeepseekV41ForCausalLM"};
    // SharedCompressedDSAAttention(module): a wrap, with the module handed over positionally and the
    // class imported from its defining submodule.
    deepseek.factory(adapter + "replacements.replace_deepseek_v41_shared_attention")
        .wraps_positionally("SharedCompressedDSAAttention",
                            "hyper_parallel.components.modules.shared_compressed_dsa_attention");
    // The shared-attention CP wrapper, under both module layouts real configs name.
    for (const char* module : {"distributed.shared_attention_context_parallel.", "context_parallel."}) {
        deepseek.cp_wrapper(adapter + module + "deepseek_v41_shared_attention_parallel_wrapper");
    }
    deepseek.compute_function(expert_parallel + "deepseek_v41_ep_compute_fn");
    deepseek.compute_function(expert_parallel + "deepseek_v41_engram_compute_fn");
    deepseek.register_into(registrar);
}
