// The upstream resolver's test contracts ("given X, expect Y") answered by the real plugins through
// the C++ Resolver API.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "famspec/component_renderer.hpp"
#include "famspec/python_text.hpp"
#include "famspec/resolver.hpp"
#include "famspec/strategy_check.hpp"
#include "python_check.hpp"
#include "registry_fixture.hpp"

namespace {

using famspec::ImportPatch;
using famspec::Options;
using famspec::ReplacementSpec;
using famspec::Slot;
using famspec::StrategySpec;
using std::nullopt;

const std::string kQwen = "hyper_parallel.models.qwen3_moe.adapter.";
const std::string kRmsNorm = kQwen + "replacements.replace_qwen3_moe_rms_norm";
const std::string kAttention = kQwen + "replacements.replace_qwen3_moe_flash_attention";
const std::string kExperts = kQwen + "replacements.replace_qwen3_moe_grouped_experts";
const std::string kQwenEp = kQwen + "distributed.expert_parallel.qwen3moe_ep_compute_fn";
const std::string kQwenCp = kQwen + "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper";
const std::string kQwenCpMask = kQwen + "distributed.context_parallel.qwen3_moe_flash_attention_cp_mask_wrapper";
const std::string kDeepseekEp = "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn";
const std::string kV32 = "hyper_parallel.models.deepseek_v32.adapter.";
const std::string kV32Experts = kV32 + "conversion.module_replacement.replace_deepseek_v32_grouped_experts";
const std::string kV41 = "hyper_parallel.models.deepseek_v41.adapter.";

const std::string kQwenModeling = "transformers.models.qwen3_moe.modeling_qwen3_moe.";
const std::string kV41Modeling = "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.";

const famspec::Resolver& resolver() {
    static const famspec::Resolver instance(famspec::test::shipped_registry());
    return instance;
}

std::shared_ptr<const ReplacementSpec> replacement(const std::string& target, std::optional<std::string> model_type,
                                                   const std::string& module_type, const Options& options = {}) {
    const auto result = resolver().replacement_spec_for(target, model_type, module_type, options);
    INFO(target, " ", result.reason());
    REQUIRE(result.resolved());
    return result.resolved()->spec;
}

std::shared_ptr<const StrategySpec> strategy(const std::string& target, std::optional<std::string> model_type,
                                             Slot slot) {
    const auto result = resolver().strategy_spec_for(target, model_type, slot);
    INFO(target, " ", result.reason());
    REQUIRE(result.resolved());
    return result.resolved()->spec;
}

const std::vector<std::string> kRuntimeArgs = {"module_fqn=''", "context=None"};

}  // namespace

TEST_CASE("contracts: the qwen3 RMSNorm spec, field by field") {
    const auto spec = replacement(kRmsNorm, nullopt, kQwenModeling + "Qwen3MoeRMSNorm");
    CHECK(spec->old_ctor == "Qwen3MoeRMSNorm");
    CHECK(spec->new_ctor == "RMSNorm");
    CHECK(spec->mode == famspec::ConstructionMode::wrap_source);
    CHECK(spec->keyword_args == kRuntimeArgs);
    CHECK_FALSE(spec->remove_class);
    CHECK(spec->imports == std::vector<ImportPatch>{{"hyper_parallel.components.modules", {"RMSNorm"}, nullopt}});
    CHECK(spec->snippets.empty());
    CHECK(spec->replacement_note == "RMSNorm wraps Qwen3MoeRMSNorm; the original class is kept as the wrapper input.");
}

TEST_CASE("contracts: qwen3 grouped experts wrap the source experts") {
    const auto spec = replacement(kExperts, "qwen3_moe", kQwenModeling + "Qwen3MoeExperts");
    CHECK(spec->old_ctor == "Qwen3MoeExperts");
    CHECK(spec->new_ctor == "GroupedExperts");
    CHECK(spec->mode == famspec::ConstructionMode::wrap_source);
    CHECK(spec->keyword_args == kRuntimeArgs);
    CHECK_FALSE(spec->remove_class);
    CHECK(spec->imports ==
          std::vector<ImportPatch>{{"hyper_parallel.components.modules", {"GroupedExperts"}, nullopt}});
    CHECK(spec->snippets.empty());
}

TEST_CASE("contracts: qwen3 attention renders GQAAttention with the family kernel") {
    const auto spec = replacement(kAttention, "qwen3_moe", kQwenModeling + "Qwen3MoeAttention");
    CHECK(spec->old_ctor == "Qwen3MoeAttention");
    CHECK(spec->new_ctor == "GQAAttention");
    CHECK(spec->mode == famspec::ConstructionMode::wrap_source);
    CHECK(spec->keyword_args == std::vector<std::string>{"module_fqn=''", "context=None",
                                                         "attention_interface=run_qwen3_moe_flash_attention"});
    CHECK_FALSE(spec->remove_class);

    // A rendered component brings its imports as raw lines instead of importing the class.
    std::vector<std::string> raw;
    for (const ImportPatch& patch : spec->imports) {
        REQUIRE(patch.raw.has_value());
        raw.push_back(*patch.raw);
    }
    CHECK(raw == std::vector<std::string>{
                     "from hyper_parallel.components.functional.attention import npu_fusion_attention_forward",
                     "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV", "from torch import nn",
                     "import torch", "import torch_npu"});
    REQUIRE(spec->snippets.size() == 1);
    const std::string& text = spec->snippets.front().text;
    for (const char* present :
         {"class GQAAttention(nn.Module):", "def run_qwen3_moe_flash_attention(", "torch_npu.npu_fusion_attention(",
          "self.linear_qkv = nn.Linear(", "InterleaveQKV(", "self.attention_interface("}) {
        CAPTURE(present);
        CHECK(text.find(present) != std::string::npos);
    }
    const auto check = famspec::test::check_python(famspec::test::artifact(raw, text));
    CHECK_MESSAGE(check.parsed, check.error);
    CHECK(check.unbound.empty());

    const auto interface = resolver().interface_component_class("qwen3_moe");
    REQUIRE(interface.resolved());
    CHECK(*interface.resolved()->spec == "GQAAttention");
    for (const char* spelling : {"Qwen3MoeForCausalLM", "qwen3moe"}) {
        const auto other = resolver().interface_component_class(spelling);
        REQUIRE(other.resolved());
        CHECK(*other.resolved()->spec == "GQAAttention");
    }
    for (const char* family : {"deepseek_v3", "deepseek_v32", "deepseek_v41", "kimi_k3", "unregistered_model"}) {
        CAPTURE(family);
        CHECK_FALSE(resolver().interface_component_class(family).resolved());
    }
}

TEST_CASE("contracts: the EP spec of the Qwen archetype") {
    const auto spec = strategy(kQwenEp, "qwen3_moe", Slot::local_compute_fn);
    CHECK(spec->kind == "moe_ep_routed");
    CHECK(spec->target_class == "Qwen3MoeSparseMoeBlock");
    CHECK(spec->method_name == "forward");
    REQUIRE(spec->body_template.has_value());
    CHECK(*spec->body_template ==
          famspec::moe_ep_forward_body(famspec::MoeRouter::topk_router_module, famspec::SharedExperts::none));
    CHECK(spec->body_template->find("router_kind='topk_router_module'") != std::string::npos);
    CHECK(spec->body_template->find("shared='none'") != std::string::npos);
    CHECK(spec->imports == std::vector<ImportPatch>{
                               {"hyper_parallel.distributed.expert_parallel.experts", {"moe_ep_forward"}, nullopt}});
    CHECK(spec->snippets.empty());
    CHECK(spec->strip_boundary_subpatterns.empty());
    CHECK_FALSE(famspec::validation_error(*spec).has_value());
}

TEST_CASE("contracts: the EP spec of the DeepSeek archetype") {
    const auto spec = strategy(kDeepseekEp, "deepseek_v3", Slot::local_compute_fn);
    CHECK(spec->kind == "moe_ep_routed");
    CHECK(spec->target_class == "DeepseekV3MoE");
    REQUIRE(spec->body_template.has_value());
    CHECK(*spec->body_template ==
          famspec::moe_ep_forward_body(famspec::MoeRouter::sigmoid_group, famspec::SharedExperts::additive));
    CHECK(spec->body_template->find("router_kind='sigmoid_group'") != std::string::npos);
    CHECK(spec->body_template->find("shared='additive'") != std::string::npos);
    CHECK(spec->strip_boundary_subpatterns == std::vector<std::string>{"experts.*", "shared_experts"});
    // The compute factory lives in the framework, not under the family: the spec does not need a family.
    CHECK(*strategy(kDeepseekEp, nullopt, Slot::local_compute_fn) == *spec);
    CHECK(strategy(kDeepseekEp, "DeepseekV2ForCausalLM", Slot::local_compute_fn)->target_class == "DeepseekV3MoE");
}

TEST_CASE("contracts: a CP wrapper resolves in its slot only") {
    for (const std::string& target : {kQwenCp, kQwenCpMask}) {
        CAPTURE(target);
        CHECK_FALSE(resolver().strategy_spec_for(target, "qwen3_moe", Slot::local_compute_fn).resolved());
        const auto spec = strategy(target, "qwen3_moe", Slot::inner_wrapper);
        CHECK(spec->kind == "cp_attention");
        CHECK(spec->imports.empty());
        CHECK_FALSE(spec->body_template.has_value());
        CHECK_FALSE(spec->target_class.has_value());
    }
    const auto v32 = strategy(kV32 + "distributed.context_parallel.deepseek_v32_dsa_attention_cp_wrapper",
                              "deepseek_v32", Slot::inner_wrapper);
    CHECK(v32->kind == "cp_attention");
    // A registry name is never covered.
    CHECK_FALSE(resolver().strategy_spec_for("sdpa_qkv", "qwen3_moe", Slot::inner_wrapper).resolved());
}

TEST_CASE("contracts: every spelling of the family gives the same spec") {
    const std::string module_type = kQwenModeling + "Qwen3MoeAttention";
    const auto inferred = replacement(kAttention, nullopt, module_type);
    for (const char* spelling : {"qwen3_moe", "Qwen3MoeForCausalLM", "qwen3moe"}) {
        CAPTURE(spelling);
        CHECK(*replacement(kAttention, spelling, module_type) == *inferred);
    }
    // The same request again is answered from the cache: the same object.
    CHECK(replacement(kAttention, nullopt, module_type) == inferred);
    const auto ep = strategy(kQwenEp, nullopt, Slot::local_compute_fn);
    CHECK(*strategy(kQwenEp, "Qwen3MoeForCausalLM", Slot::local_compute_fn) == *ep);
    CHECK(*strategy(kQwenEp, "qwen3moe", Slot::local_compute_fn) == *ep);
}

TEST_CASE("contracts: unknown identities fail closed") {
    const std::string module_type = kQwenModeling + "Qwen3MoeAttention";
    CHECK_FALSE(resolver().replacement_spec_for(kAttention, "unregistered_model", module_type).resolved());
    CHECK_FALSE(resolver().replacement_spec_for("unknown.replace", nullopt, module_type).resolved());
    CHECK_FALSE(resolver()
                    .replacement_spec_for(kQwen + "replacements.replace_qwen3_moe_nothing", nullopt, module_type)
                    .resolved());
    CHECK_FALSE(resolver().strategy_spec_for("unknown.compute", "qwen3_moe", Slot::local_compute_fn).resolved());
    // Without the source class there is no call site to rewrite.
    CHECK_FALSE(resolver().replacement_spec_for(kAttention, nullopt, nullopt).resolved());
    CHECK_FALSE(resolver().replacement_spec_for(kAttention, "qwen3_moe", nullopt).resolved());
    // A family registered without codegen content still fails closed on a qwen3 target named for it.
    CHECK_FALSE(resolver().replacement_spec_for(kAttention, "kimi_k3", module_type).resolved());
}

TEST_CASE("contracts: external state is the MoE block an inline body replaces, never a rendered component") {
    const std::vector<famspec::Injection> ep = {{kQwenEp, {}}};
    CHECK(resolver().external_state_classes_for("qwen3_moe", ep) == std::vector<std::string>{"Qwen3MoeSparseMoeBlock"});
    CHECK(resolver().external_state_classes_for("qwen3_moe", {}).empty());
    const std::vector<famspec::Injection> mixed = {{kDeepseekEp, {}},       {kQwenEp, {}}, {kQwenEp, {}},
                                                   {"unknown.compute", {}}, {nullopt, {}}, {kQwenCp, {}}};
    CHECK(resolver().external_state_classes_for(nullopt, mixed) ==
          std::vector<std::string>{"DeepseekV3MoE", "Qwen3MoeSparseMoeBlock"});
}

TEST_CASE("contracts: direct components wrap the source module") {
    const std::string components = "hyper_parallel.components.modules.";
    struct Case {
        std::string target, source_class, component, module;
        std::vector<std::string> keyword_args;
    };
    const std::vector<Case> cases = {
        {components + "engram.EngramModule", "DeepseekV41Engram", "EngramModule", components + "engram", kRuntimeArgs},
        {components + "mhc.PipelinedMhcModule", "DeepseekV41Mhc", "PipelinedMhcModule", components + "mhc",
         kRuntimeArgs},
        // (module, module_fqn='', context=None): the runtime arguments render.
        {components + "shared_compressed_dsa_attention.SharedCompressedDSAAttention", "DeepseekV41SharedAttention",
         "SharedCompressedDSAAttention", components + "shared_compressed_dsa_attention", kRuntimeArgs},
        // GQAAttention is defined in gqa_attention, so a direct target names it there.
        {components + "gqa_attention.GQAAttention", "Qwen3MoeAttention", "GQAAttention", components + "gqa_attention",
         kRuntimeArgs},
    };
    for (const Case& c : cases) {
        CAPTURE(c.target);
        const auto spec = replacement(c.target, "deepseek_v41", kV41Modeling + c.source_class);
        CHECK(spec->old_ctor == c.source_class);
        CHECK(spec->new_ctor == c.component);
        CHECK(spec->mode == famspec::ConstructionMode::wrap_source);
        CHECK_FALSE(spec->remove_class);
        CHECK(spec->keyword_args == c.keyword_args);
        CHECK(spec->imports == std::vector<ImportPatch>{{c.module, {c.component}, nullopt}});
        CHECK(spec->snippets.empty());
        // The spelling of the family does not change the answer.
        CHECK(*replacement(c.target, "DeepseekV41ForCausalLM", kV41Modeling + c.source_class) == *spec);
    }
    // A component that takes no module cannot wrap anything: NgramHashMapping(assets, layer_id).
    const auto ngram =
        resolver().replacement_spec_for(components + "engram.NgramHashMapping", "deepseek_v41", kV41Modeling + "Hash");
    CHECK(ngram.gap() == famspec::Gap::component_mismatch);
    CHECK(ngram.reason() ==
          "component NgramHashMapping takes no 'module' parameter, so it cannot wrap the source module");
    // The old home of GQAAttention is not a component path.
    CHECK(resolver()
              .replacement_spec_for(components + "attention.GQAAttention", "qwen3_moe",
                                    kQwenModeling + "Qwen3MoeAttention")
              .gap() == famspec::Gap::not_registered);
    CHECK_FALSE(resolver()
                    .replacement_spec_for(components + "engram.NoSuchModule", "deepseek_v41", kV41Modeling + "Engram")
                    .resolved());
}

TEST_CASE("contracts: the deepseek_v41 factory wraps with the module handed over positionally") {
    const auto spec = replacement(kV41 + "replacements.replace_deepseek_v41_shared_attention", nullopt,
                                  kV41Modeling + "DeepseekV41SharedAttention");
    CHECK(spec->new_ctor == "SharedCompressedDSAAttention");
    CHECK(spec->mode == famspec::ConstructionMode::wrap_source);
    CHECK_FALSE(spec->remove_class);
    CHECK(spec->keyword_args.empty());
    // Imported from the defining submodule, as the factory does.
    CHECK(spec->imports ==
          std::vector<ImportPatch>{{"hyper_parallel.components.modules.shared_compressed_dsa_attention",
                                    {"SharedCompressedDSAAttention"},
                                    nullopt}});
    for (const char* function : {"deepseek_v41_ep_compute_fn", "deepseek_v41_engram_compute_fn"}) {
        CAPTURE(function);
        const auto result =
            resolver().strategy_spec_for(kV41 + "expert_parallel." + function, "deepseek_v41", Slot::local_compute_fn);
        CHECK(result.status() == famspec::ResolutionStatus::native);
    }
}

TEST_CASE("contracts: deepseek_v3 low-precision factories are runtime-only, with their reason") {
    for (const char* name : {"replace_linear", "replace_grouped_experts", "replace_mxfp8_grouped_experts",
                             "replace_hifloat8_grouped_experts"}) {
        const std::string target = std::string("hyper_parallel.models.deepseek_v3.adapter.replacements.") + name;
        CAPTURE(target);
        for (const char* family : {"deepseek_v3", "DeepseekV3ForCausalLM"}) {
            const auto result = resolver().replacement_spec_for(target, family, "torch.nn.Linear");
            CHECK(result.status() == famspec::ResolutionStatus::native);
            CHECK(result.reason().find("at runtime") != std::string::npos);
        }
        // deepseek_v2 is a family of its own with no replacement factories, as upstream registers it.
        for (const char* family : {"deepseek_v2", "DeepseekV2ForCausalLM", "deepseekv2"}) {
            CAPTURE(family);
            const auto result = resolver().replacement_spec_for(target, family, "torch.nn.Linear");
            CHECK(result.status() == famspec::ResolutionStatus::not_covered);
            CHECK(result.gap() == famspec::Gap::wrong_family);
            CHECK(result.reason() == "wrong family: " + target +
                                         " is a replacement factory of family 'deepseek_v3', not of 'deepseek_v2'");
        }
    }
}

TEST_CASE("contracts: qwen3_moe factories resolve under both provider layouts, to the same spec") {
    const std::string newer = kQwen + "conversion.module_replacement.";
    for (const auto& [older, source] :
         {std::pair{kRmsNorm, "Qwen3MoeRMSNorm"}, std::pair{kAttention, "Qwen3MoeAttention"},
          std::pair{kExperts, "Qwen3MoeExperts"}}) {
        const std::string target = newer + older.substr(older.rfind('.') + 1);
        CAPTURE(target);
        const auto spec = replacement(target, nullopt, kQwenModeling + source);
        CHECK(*spec == *replacement(older, "qwen3_moe", kQwenModeling + source));
        CHECK(*replacement(target, "Qwen3MoeForCausalLM", kQwenModeling + source) == *spec);
    }
    // Another family's provider layout does not hold qwen3_moe's factories.
    const auto elsewhere = resolver().replacement_spec_for(
        kV32 + "conversion.module_replacement.replace_qwen3_moe_rms_norm", nullopt, kQwenModeling + "Qwen3MoeRMSNorm");
    CHECK(elsewhere.gap() == famspec::Gap::not_registered);
}

TEST_CASE("contracts: the text identities answer as families of their own") {
    for (const auto& [spelling, model_type] :
         {std::pair{"qwen3_5_text", "qwen3_5_text"}, std::pair{"qwen35text", "qwen3_5_text"},
          std::pair{"Qwen3_5ForConditionalGeneration", "qwen3_5"}, std::pair{"qwen4_exp_text", "qwen4_exp_text"},
          std::pair{"Qwen4ExpForConditionalGeneration", "qwen4_exp"}, std::pair{"deepseek_v2", "deepseek_v2"},
          std::pair{"DeepseekV2ForCausalLM", "deepseek_v2"},
          // The text architectures normalise to the multimodal family's own name, which outranks them
          // (the reference keeps the first registration of a key, and upstream registers that family first).
          std::pair{"Qwen3_5ForCausalLM", "qwen3_5"}, std::pair{"Qwen4ExpForCausalLM", "qwen4_exp"}}) {
        CAPTURE(spelling);
        // They ship no factory and hand no interface over: the answer names the family found.
        const auto result = resolver().interface_component_class(spelling);
        CHECK(result.status() == famspec::ResolutionStatus::not_covered);
        CHECK(result.reason() == "family '" + std::string(model_type) + "' hands no interface to any component");
    }
}

TEST_CASE("contracts: deepseek_v32 grouped experts pass only module, module_fqn and context") {
    const std::string module_type = "hyper_parallel.models.deepseek_v32.modeling_deepseek_v32.DeepseekV32Experts";
    const auto plain = replacement(kV32Experts, "deepseek_v32", module_type);
    CHECK(plain->keyword_args == kRuntimeArgs);
    CHECK(plain->new_ctor == "GroupedExperts");
    // GroupedExperts has no use_mxfp8: the option is ignored, with a diagnostic, as the reference ignores it.
    const auto mxfp8 =
        resolver().replacement_spec_for(kV32Experts, "deepseek_v32", module_type, Options{{"use_mxfp8", true}});
    REQUIRE(mxfp8.resolved());
    CHECK(*mxfp8.resolved()->spec == *plain);
    REQUIRE(mxfp8.diagnostics.size() == 1);
    CHECK(mxfp8.diagnostics[0].kind == famspec::DiagnosticKind::ignored_option);
}

TEST_CASE("contracts: SharedCompressedDSAAttention no longer takes use_fused_ops: ignored, not rendered") {
    const std::string target =
        "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention";
    const auto result = resolver().replacement_spec_for(
        target, "deepseek_v41", kV41Modeling + "DeepseekV41SharedAttention", Options{{"use_fused_ops", false}});
    REQUIRE(result.resolved());
    CHECK(result.resolved()->spec->keyword_args == std::vector<std::string>{"module_fqn=''", "context=None"});
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].kind == famspec::DiagnosticKind::ignored_option);
    CHECK(result.diagnostics[0].message ==
          "option 'use_fused_ops' is ignored: it is not declared; component SharedCompressedDSAAttention declares no "
          "options");
    CHECK(result.resolved()->spec->imports ==
          std::vector<ImportPatch>{{"hyper_parallel.components.modules.shared_compressed_dsa_attention",
                                    {"SharedCompressedDSAAttention"},
                                    nullopt}});
}

TEST_CASE("contracts: a component that cannot be rendered is an error naming the name and the class") {
    famspec::LoadOptions options;
    options.directories = {famspec::test::fixture_dir("unbound_render")};
    const auto registry = famspec::load_plugins(options);
    REQUIRE(registry->all_ok());
    const famspec::Resolver local(registry);
    const auto result =
        local.replacement_spec_for("hyper_parallel.models.toy_render.adapter.replacements.replace_toy_attention",
                                   nullopt, "toy.modeling.ToyAttentionSource");
    CHECK(result.status() == famspec::ResolutionStatus::error);
    const auto* broken = std::get_if<famspec::Broken>(&result.state);
    REQUIRE(broken != nullptr);
    CHECK(broken->reason.find("undefined_helper") != std::string::npos);
    CHECK(broken->reason.find("ToyAttention") != std::string::npos);
    CHECK(result.gap() == std::nullopt);
}
