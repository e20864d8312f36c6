// Families with no codegen content, registered so that each of their spellings resolves to a
// family (and so fails closed on its targets) rather than to no family at all. They share one
// plugin because each is a single line of data; a family that gains content moves to its own folder.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("catalogue", "1.0.0", "Families registered without codegen content")(famspec::Registrar& registrar) {
    using famspec::declare::Family;
    Family{"kimi_k26", "KimiK25ForConditionalGeneration"}.register_into(registrar);
    Family{"kimi_k3", "KimiK3ForConditionalGeneration"}.register_into(registrar);
    // The text-only identities are registrations of their own, from the same directory as the
    // multimodal family (which is what its directory alias says).
    Family{"qwen3_5", "Qwen3_5ForConditionalGeneration"}.directory_alias("qwen35text").register_into(registrar);
    Family{"qwen3_5_text", "Qwen3_5ForCausalLM"}.register_into(registrar);
    Family{"qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration"}
        .directory_alias("qwen35moetext")
        .register_into(registrar);
    Family{"qwen2_moe", "Qwen2MoeForCausalLM"}.register_into(registrar);
    Family{"qwen4_exp", "Qwen4ExpForConditionalGeneration"}.register_into(registrar);
    Family{"qwen4_exp_text", "Qwen4ExpForCausalLM"}.register_into(registrar);
    Family{"jt_deepseek_v3", "JTDeepseekV3ForCausalLM"}.register_into(registrar);
}
