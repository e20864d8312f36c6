// DeepSeek-V3.2: RMSNorm, DSA attention and grouped experts wrapped, and the DSA CP wrapper.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("deepseek_v32", "1.0.0", "DeepSeek-V3.2 family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.deepseek_v32.adapter.";
    const std::string components = "hyper_parallel.components.modules";

    Family deepseek{"deepseek_v32", "DeepseekV32ForCausalLM"};
    deepseek.provider(adapter + "conversion.module_replacement");
    deepseek.factory("replace_deepseek_v32_rms_norm").wraps("RMSNorm", components).bind("module_fqn").bind("context");
    deepseek.factory("replace_deepseek_v32_dsa_attention")
        .wraps("DeepseekV32DSAAttention", components)
        .bind("module_fqn")
        .bind("context");
    deepseek.factory("replace_deepseek_v32_grouped_experts")
        .wraps("GroupedExperts", components)
        .bind("module_fqn")
        .bind("context");

    deepseek.cp_wrapper(adapter + "distributed.context_parallel.deepseek_v32_dsa_attention_cp_wrapper");
    deepseek.register_into(registrar);
}
