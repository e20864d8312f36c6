// The shipped plugins: they load, and the registry holds exactly the declared families, components,
// factories, archetypes, CP wrappers and compute functions. The rendered Qwen3-MoE attention is
// checked with the real Python.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "famspec/component_renderer.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry_entries.hpp"
#include "python_check.hpp"
#include "registry_fixture.hpp"

namespace {

using famspec::test::shipped_registry;

const std::string kComponents = "hyper_parallel.components.modules";
const std::string kQwen = "hyper_parallel.models.qwen3_moe.adapter.";
const std::string kDeepseekV3 = "hyper_parallel.models.deepseek_v3.adapter.replacements.";
const std::string kDeepseekV32 = "hyper_parallel.models.deepseek_v32.adapter.";
const std::string kDeepseekV41 = "hyper_parallel.models.deepseek_v41.adapter.";

// A literal as Python's repr() writes it (the few kinds the declarations use).
std::string python(const famspec::PyLiteral& literal) {
    const auto& value = literal.value();
    if (std::holds_alternative<famspec::PyNone>(value)) return "None";
    if (const bool* b = std::get_if<bool>(&value)) return *b ? "True" : "False";
    if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
    if (const double* d = std::get_if<double>(&value)) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", *d);
        return buffer;
    }
    return "'" + std::get<std::string>(value) + "'";
}

// A signature written the way Python prints it: "a=None, *, module, context=None".
std::string signature(std::span<const famspec::Parameter> parameters) {
    std::string text;
    bool keyword_only = false;
    for (const famspec::Parameter& parameter : parameters) {
        if (!text.empty()) text += ", ";
        if (parameter.kind == famspec::ParameterKind::keyword_only && !keyword_only) {
            keyword_only = true;
            text += "*, ";
        }
        text += parameter.name;
        switch (parameter.default_value.kind()) {
            case famspec::Default::Kind::required:
                break;
            case famspec::Default::Kind::literal:
                text += "=" + python(parameter.default_value.literal_value());
                break;
            case famspec::Default::Kind::expression:
                text += "=<" + parameter.default_value.expression_source() + ">";
                break;
        }
    }
    return text;
}

// A construction written as the call it stands for.
std::string call(const famspec::Construction& construction) {
    std::string text = construction.component + "(";
    std::string arguments = construction.mode == famspec::ConstructionMode::wrap_source
                                ? (construction.module_positional ? "module" : "module=module")
                                : "<original args>";
    for (const famspec::Argument& argument : construction.arguments) {
        arguments += ", " + argument.name + "=";
        switch (argument.binding) {
            case famspec::ArgumentBinding::parameter:
                arguments += "$" + argument.value;
                break;
            case famspec::ArgumentBinding::literal:
                arguments += argument.value;
                break;
            case famspec::ArgumentBinding::interface:
                arguments += "@" + argument.value;
                break;
        }
    }
    return text + arguments + ") from " + construction.import_module;
}

template <class Items, class Key>
std::vector<std::string> sorted_keys(const Items& items, Key key) {
    std::vector<std::string> keys;
    for (const auto& item : items) keys.emplace_back(key(item));
    std::sort(keys.begin(), keys.end());
    return keys;
}

}  // namespace

TEST_CASE("plugins: every shipped plugin loads ok from the build's plugin directory") {
    const auto& registry = shipped_registry();
    REQUIRE(registry != nullptr);
    std::vector<std::string> names;
    for (const auto& record : registry->plugins()) {
        CAPTURE(record.path);
        CHECK_MESSAGE(record.ok(), (record.error ? record.error->message : std::string()));
        REQUIRE(record.manifest != nullptr);
        names.push_back(record.manifest->name);
    }
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"catalogue", "components", "deepseek_v3", "deepseek_v32", "deepseek_v41",
                                            "qwen3_moe"});
    CHECK(registry->all_ok());
}

TEST_CASE("plugins: the families, their architectures and directory aliases, as upstream registers them") {
    const auto& registry = *shipped_registry();
    std::map<std::string, std::string> architectures;
    std::map<std::string, std::vector<std::string>> directories;
    for (const auto& family : registry.families()) {
        architectures.emplace(family->model_type(), family->architecture());
        directories.emplace(family->model_type(), std::vector<std::string>(family->directory_aliases().begin(),
                                                                           family->directory_aliases().end()));
        CHECK(family->aliases().empty());
    }
    CHECK(architectures == std::map<std::string, std::string>{
                               {"deepseek_v2", "DeepseekV2ForCausalLM"},
                               {"deepseek_v3", "DeepseekV3ForCausalLM"},
                               {"deepseek_v32", "DeepseekV32ForCausalLM"},
                               {"deepseek_v41", "DeepseekV41ForCausalLM"},
                               {"jt_deepseek_v3", "JTDeepseekV3ForCausalLM"},
                               {"kimi_k26", "KimiK25ForConditionalGeneration"},
                               {"kimi_k3", "KimiK3ForConditionalGeneration"},
                               {"qwen2_moe", "Qwen2MoeForCausalLM"},
                               {"qwen3_5", "Qwen3_5ForConditionalGeneration"},
                               {"qwen3_5_text", "Qwen3_5ForCausalLM"},
                               {"qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration"},
                               {"qwen3_moe", "Qwen3MoeForCausalLM"},
                               {"qwen4_exp", "Qwen4ExpForConditionalGeneration"},
                               {"qwen4_exp_text", "Qwen4ExpForCausalLM"},
                           });
    CHECK(directories["deepseek_v3"] == std::vector<std::string>{"deepseekv2"});
    CHECK(directories["qwen3_5"] == std::vector<std::string>{"qwen35text"});
    CHECK(directories["qwen3_5_moe"] == std::vector<std::string>{"qwen35moetext"});
    for (const char* family : {"qwen3_moe", "deepseek_v2", "deepseek_v32", "deepseek_v41", "kimi_k26", "kimi_k3",
                               "qwen2_moe", "qwen3_5_text", "qwen4_exp", "qwen4_exp_text", "jt_deepseek_v3"}) {
        CAPTURE(family);
        CHECK(directories[family].empty());
    }
}

TEST_CASE("plugins: every spelling of a family finds it") {
    const auto& registry = *shipped_registry();
    const std::map<std::string, std::vector<std::string>> spellings = {
        {"qwen3_moe", {"qwen3_moe", "Qwen3MoeForCausalLM", "qwen3moe", "Qwen3-MoE"}},
        {"deepseek_v3", {"deepseek_v3", "DeepseekV3ForCausalLM", "deepseekv3", "DeepSeek-V3"}},
        // Its own registration: the directory alias deepseekv2 -> deepseek_v3 does not make it a spelling of V3.
        {"deepseek_v2", {"deepseek_v2", "DeepseekV2ForCausalLM", "deepseekv2", "DeepSeek-V2"}},
        {"deepseek_v32", {"deepseek_v32", "DeepseekV32ForCausalLM"}},
        {"deepseek_v41", {"deepseek_v41", "DeepseekV41ForCausalLM"}},
        {"kimi_k26", {"kimi_k26", "KimiK25ForConditionalGeneration", "kimi_k25"}},
        {"kimi_k3", {"kimi_k3", "KimiK3ForConditionalGeneration"}},
        // Qwen3_5ForCausalLM normalises to qwen35, qwen3_5's own name, which outranks it: upstream registers
        // qwen3_5 first and its alias table keeps the first, so the reference answers qwen3_5 too.
        {"qwen3_5", {"qwen3_5", "Qwen3_5ForConditionalGeneration", "qwen35", "Qwen3_5ForCausalLM"}},
        {"qwen3_5_text", {"qwen3_5_text", "qwen35text", "Qwen3_5_Text"}},
        {"qwen3_5_moe", {"qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe_text"}},
        {"qwen2_moe", {"qwen2_moe", "Qwen2MoeForCausalLM"}},
        {"qwen4_exp", {"qwen4_exp", "Qwen4ExpForConditionalGeneration", "qwen4exp", "Qwen4ExpForCausalLM"}},
        {"qwen4_exp_text", {"qwen4_exp_text", "qwen4exptext"}},
        {"jt_deepseek_v3", {"jt_deepseek_v3", "JTDeepseekV3ForCausalLM"}},
    };
    for (const auto& [model_type, names] : spellings) {
        for (const std::string& name : names) {
            CAPTURE(name);
            const auto* family = registry.find_family(name);
            REQUIRE(family != nullptr);
            CHECK((*family)->model_type() == model_type);
        }
    }
    for (const char* unknown : {"unregistered_model", "qwen3", "deepseek_v4", "glm5"}) {
        CAPTURE(unknown);
        CHECK(registry.find_family(unknown) == nullptr);
    }
    // Family spellings come before directory aliases: deepseekv2 and qwen35text are both.
    const auto v2 = registry.explain_family("deepseekv2");
    CHECK((*v2.family)->model_type() == "deepseek_v2");
    CHECK(v2.rule == "normalised key 'deepseekv2'");
    const auto text = registry.explain_family("Qwen3_5_Text");
    CHECK((*text.family)->model_type() == "qwen3_5_text");
    CHECK(text.spellings_tried == std::vector<std::string>{"Qwen3_5_Text", "qwen35text"});
    // An identity no family registers is answered by the family whose directory holds it.
    // The frozen registry lists, per family, the keys that answer it.
    const auto* qwen35_text = registry.find_family("qwen3_5_text");
    CHECK(qwen35_text->spellings == std::vector<std::string>{"qwen35text"});
    CHECK(registry.find_family("qwen3_5")->spellings == std::vector<std::string>{"qwen35"});
    const auto moe_text = registry.explain_family("qwen3_5_moe_text");
    REQUIRE(moe_text.family != nullptr);
    CHECK((*moe_text.family)->model_type() == "qwen3_5_moe");
    CHECK(moe_text.rule == "directory alias 'qwen35moetext'");
}

TEST_CASE("plugins: the component catalogue, with exactly the declared signatures") {
    const auto& registry = *shipped_registry();
    const std::map<std::string, std::pair<std::string, std::string>> expected = {
        {"RMSNorm", {"rms_norm", "hidden_size=None, eps=1e-05, *, module=None, module_fqn='', context=None"}},
        {"OffsetRMSNorm", {"rms_norm", "*, module, module_fqn='', context=None"}},
        {"GQAAttention",
         {"gqa_attention",
          "*, module, module_fqn='', context=None, attention_interface=<npu_fusion_attention_forward>"}},
        {"GroupedExperts", {"grouped_experts", "*, module, module_fqn='', context=None"}},
        {"MLAAttention",
         {"mla_attention",
          "*, module, module_fqn='', context=None, attention_interface=<npu_fusion_attention_forward>"}},
        {"DSAAttention", {"dsa_attention", "*, module, module_fqn='', context=None"}},
        {"DeepseekV32DSAAttention", {"dsa_attention", "*, module, module_fqn='', context=None"}},
        {"EngramModule", {"engram", "*, module, module_fqn='', context=None"}},
        {"PipelinedMhcModule", {"mhc", "*, module, module_fqn='', context=None"}},
        {"SharedCompressedDSAAttention", {"shared_compressed_dsa_attention", "module, module_fqn='', context=None"}},
        {"NgramHashMapping", {"engram", "assets, layer_id"}},
    };
    CHECK(registry.components().size() == expected.size());
    for (const auto& [name, shape] : expected) {
        CAPTURE(name);
        const auto* by_package = registry.find_component(kComponents, name);
        const auto* by_module = registry.find_component(kComponents + "." + shape.first + "." + name);
        REQUIRE(by_package != nullptr);
        CHECK(by_package == by_module);
        const famspec::Component& component = **by_package;
        CHECK(component.import_module() == kComponents);
        CHECK(component.defining_module() == kComponents + "." + shape.first);
        CHECK(signature(component.parameters()) == shape.second);
        CHECK(component.source().empty() == (name != "GQAAttention"));
        CHECK(by_package->plugin == "components");
    }
}

TEST_CASE("plugins: the replacement factories and what they construct") {
    const auto& registry = *shipped_registry();
    const std::string runtime = "module, module_fqn='', context=None";
    const std::map<std::string, std::tuple<std::string, std::string, std::string>> expected = {
        {kQwen + "replacements.replace_qwen3_moe_rms_norm",
         {"qwen3_moe", runtime,
          "RMSNorm(module=module, module_fqn=$module_fqn, context=$context) from " + kComponents}},
        {kQwen + "replacements.replace_qwen3_moe_flash_attention",
         {"qwen3_moe", runtime,
          "GQAAttention(module=module, module_fqn=$module_fqn, context=$context, "
          "attention_interface=@run_qwen3_moe_flash_attention) from " +
              kComponents}},
        {kQwen + "replacements.replace_qwen3_moe_grouped_experts",
         {"qwen3_moe", runtime,
          "GroupedExperts(module=module, module_fqn=$module_fqn, context=$context) from " + kComponents}},
        {kDeepseekV3 + "replace_linear", {"deepseek_v3", runtime, ""}},
        {kDeepseekV3 + "replace_grouped_experts", {"deepseek_v3", runtime, ""}},
        {kDeepseekV3 + "replace_mxfp8_grouped_experts", {"deepseek_v3", runtime, ""}},
        {kDeepseekV3 + "replace_hifloat8_grouped_experts", {"deepseek_v3", runtime, ""}},
        {kDeepseekV32 + "conversion.module_replacement.replace_deepseek_v32_rms_norm",
         {"deepseek_v32", runtime,
          "RMSNorm(module=module, module_fqn=$module_fqn, context=$context) from " + kComponents}},
        {kDeepseekV32 + "conversion.module_replacement.replace_deepseek_v32_dsa_attention",
         {"deepseek_v32", runtime,
          "DeepseekV32DSAAttention(module=module, module_fqn=$module_fqn, context=$context) from " + kComponents}},
        {kDeepseekV32 + "conversion.module_replacement.replace_deepseek_v32_grouped_experts",
         {"deepseek_v32", runtime,
          "GroupedExperts(module=module, module_fqn=$module_fqn, context=$context) from " + kComponents}},
        {kDeepseekV41 + "replacements.replace_deepseek_v41_shared_attention",
         {"deepseek_v41", runtime,
          "SharedCompressedDSAAttention(module) from " + kComponents + ".shared_compressed_dsa_attention"}},
    };
    CHECK(registry.factories().size() == expected.size());
    for (const auto& [target, shape] : expected) {
        CAPTURE(target);
        const auto* factory = registry.find_factory(target);
        REQUIRE(factory != nullptr);
        CHECK((*factory)->family() == std::get<0>(shape));
        CHECK(factory->plugin == std::get<0>(shape));
        CHECK(signature((*factory)->parameters()) == std::get<1>(shape));
        const famspec::Construction* construction = (*factory)->construction();
        if (std::get<2>(shape).empty()) {
            CHECK(construction == nullptr);
            CHECK((*factory)->runtime_only_reason().find("at runtime") != std::string_view::npos);
        } else {
            REQUIRE(construction != nullptr);
            CHECK(construction->mode == famspec::ConstructionMode::wrap_source);
            CHECK(call(*construction) == std::get<2>(shape));
        }
    }
}

TEST_CASE("plugins: each family's provider modules, and qwen3_moe's factories under both layouts") {
    const auto& registry = *shipped_registry();
    std::map<std::string, std::vector<std::string>> providers;
    for (const auto& family : registry.families()) {
        if (!family.provider_modules.empty()) providers.emplace(family->model_type(), family.provider_modules);
    }
    CHECK(providers == std::map<std::string, std::vector<std::string>>{
                           {"deepseek_v3",
                            {"hyper_parallel.models.deepseek_v3.adapter.conversion.module_replacement",
                             "hyper_parallel.models.deepseek_v3.adapter.replacements"}},
                           {"deepseek_v32", {kDeepseekV32 + "conversion.module_replacement"}},
                           {"deepseek_v41", {kDeepseekV41 + "replacements"}},
                           {"qwen3_moe", {kQwen + "conversion.module_replacement", kQwen + "replacements"}},
                       });
    for (const char* name :
         {"replace_qwen3_moe_rms_norm", "replace_qwen3_moe_flash_attention", "replace_qwen3_moe_grouped_experts"}) {
        CAPTURE(name);
        const auto* older = registry.find_factory(kQwen + "replacements." + name);
        REQUIRE(older != nullptr);
        CHECK(registry.find_factory(kQwen + "conversion.module_replacement." + name) == older);
        // One factory, declared once: its own target is the first provider's.
        CHECK((*older)->target() == kQwen + "replacements." + name);
        CHECK(registry.find_factory(kQwen + "conversion." + name) == nullptr);
        CHECK(registry.find_factory(kQwen + "conversion.module_replacement.nested." + name) == nullptr);
    }
    // A provider module of one family is not one of another's.
    CHECK(registry.find_factory(kDeepseekV32 + "conversion.module_replacement.replace_qwen3_moe_rms_norm") == nullptr);
}

TEST_CASE("plugins: the two MoE archetypes") {
    const auto& registry = *shipped_registry();
    REQUIRE(registry.archetypes().size() == 2);

    const auto* qwen = registry.find_archetype(kQwen + "distributed.expert_parallel.qwen3moe_ep_compute_fn");
    REQUIRE(qwen != nullptr);
    CHECK((*qwen)->fingerprint() == famspec::MoeFingerprint{"topk_router_module", "none", "batched_parameters"});
    CHECK((*qwen)->family() == "qwen3_moe");
    CHECK((*qwen)->kind() == "moe_ep_routed");
    CHECK((*qwen)->target_class() == "Qwen3MoeSparseMoeBlock");
    CHECK((*qwen)->router_kind() == "topk_router_module");
    CHECK((*qwen)->shared() == "none");
    CHECK((*qwen)->strip_boundary_subpatterns().empty());
    CHECK((*qwen)->compute_factory() == kQwen + "distributed.expert_parallel.qwen3moe_ep_compute_fn");
    CHECK(signature((*qwen)->options()) == "use_grouped_gemm=False");

    const auto* deepseek =
        registry.find_archetype("hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn");
    REQUIRE(deepseek != nullptr);
    CHECK((*deepseek)->fingerprint() ==
          famspec::MoeFingerprint{"topk_router_module", "additive", "batched_parameters"});
    CHECK((*deepseek)->family() == "deepseek_v3");
    CHECK((*deepseek)->kind() == "moe_ep_routed");
    CHECK((*deepseek)->target_class() == "DeepseekV3MoE");
    // The detection key and the merge key differ on purpose.
    CHECK((*deepseek)->router_kind() == "sigmoid_group");
    CHECK((*deepseek)->shared() == "additive");
    CHECK(std::vector<std::string>((*deepseek)->strip_boundary_subpatterns().begin(),
                                   (*deepseek)->strip_boundary_subpatterns().end()) ==
          std::vector<std::string>{"experts.*", "shared_experts"});
    CHECK((*deepseek)->compute_factory() ==
          "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn");
    CHECK((*deepseek)->options().empty());

    // No archetype answers a fingerprint that no family registered.
    const famspec::MoeFingerprint unknown{"softmax_topk", "none", "batched_parameters"};
    CHECK(std::none_of(registry.archetypes().begin(), registry.archetypes().end(),
                       [&](const auto& archetype) { return archetype->fingerprint() == unknown; }));
}

TEST_CASE("plugins: CP wrappers and the compute functions that are not archetypes") {
    const auto& registry = *shipped_registry();
    CHECK(sorted_keys(registry.cp_wrappers(), [](const auto& w) { return std::string(w->target()); }) ==
          std::vector<std::string>{
              "hyper_parallel.models.deepseek_v3.adapter.distributed.context_parallel.mla_cp_wrapper",
              kDeepseekV32 + "distributed.context_parallel.deepseek_v32_dsa_attention_cp_wrapper",
              kDeepseekV41 + "context_parallel.deepseek_v41_shared_attention_parallel_wrapper",
              kDeepseekV41 +
                  "distributed.shared_attention_context_parallel.deepseek_v41_shared_attention_parallel_wrapper",
              kQwen + "distributed.context_parallel.qwen3_moe_flash_attention_cp_mask_wrapper",
              kQwen + "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper",
          });
    // Only the MLA wrapper declares static options: strategy, and backend with its Literal values.
    for (const auto& wrapper : registry.cp_wrappers()) {
        CAPTURE(wrapper->target());
        if (wrapper->target().ends_with(".mla_cp_wrapper")) {
            CHECK(signature(wrapper->options()) == "*, strategy='expanded_ulysses', backend='npu'");
            CHECK(wrapper->options()[1].allowed == std::vector<famspec::PyLiteral>{"npu", "sdpa"});
            CHECK(wrapper->options()[0].allowed.empty());
        } else {
            CHECK(wrapper->options().empty());
        }
    }

    for (const char* function : {"deepseek_v41_ep_compute_fn", "deepseek_v41_engram_compute_fn"}) {
        const std::string target = kDeepseekV41 + "distributed.expert_parallel." + function;
        CAPTURE(target);
        const auto* owner = registry.find_compute_function_owner(target);
        REQUIRE(owner != nullptr);
        CHECK((*owner)->model_type() == "deepseek_v41");
        CHECK(registry.find_archetype(target) == nullptr);
    }
}

TEST_CASE("plugins: only qwen3_moe hands a function over, and it renders with GQAAttention") {
    const auto& registry = *shipped_registry();
    for (const auto& family : registry.families()) {
        CAPTURE(family->model_type());
        CHECK(family->interface_blocks().empty() == (family->model_type() != "qwen3_moe"));
    }
    const auto* gqa = registry.find_component(kComponents, "GQAAttention");
    const auto* qwen = registry.find_family("qwen3_moe");
    REQUIRE(gqa != nullptr);
    REQUIRE(qwen != nullptr);
    const auto result =
        famspec::block_renderer().render(**gqa, "run_qwen3_moe_flash_attention", (*qwen)->interface_blocks());
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    const std::string& source = result->source;

    CHECK(result->imports ==
          std::vector<std::string>{
              "from hyper_parallel.components.functional.attention import npu_fusion_attention_forward",
              "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV", "from torch import nn",
              "import torch", "import torch_npu"});
    const auto check = famspec::test::check_python(famspec::test::artifact(result->imports, source));
    CHECK_MESSAGE(check.parsed, check.error);
    CHECK(check.unbound.empty());

    for (const char* present :
         {"def run_qwen3_moe_flash_attention(", "def _get_compressed_causal_mask(", "torch_npu.npu_fusion_attention(",
          "_COMPRESSED_CAUSAL_MASK_SIZE = 2048\n", "_COMPRESSED_CAUSAL_MASKS = {}\n",
          "def rotate_half(x):", "def _apply_gqa_rope(query, key, position_embeddings, rotary_interleaved, head_dim):",
          "def _projections_can_fuse(projections):", "self.linear_qkv = nn.Linear(",
          "self.qkv_split_sizes =", "InterleaveQKV(", "def make_transforms(", "self.attention_interface(", "**kwargs",
          "# famspec: rendered component GQAAttention (interface: run_qwen3_moe_flash_attention)\n"
          "class GQAAttention(nn.Module):"}) {
        CAPTURE(present);
        CHECK(source.find(present) != std::string::npos);
    }
    for (const char* absent : {"self.q_proj = nn.Linear(", "self.k_proj = nn.Linear(", "self.v_proj = nn.Linear(",
                               "get_parallel_state", "tp_mesh", "all_gather(", "reduce_scatter("}) {
        CAPTURE(absent);
        CHECK(source.find(absent) == std::string::npos);
    }
    // The interface comes first and the class last, each once.
    CHECK(source.find("def run_qwen3_moe_flash_attention(") < source.find("class GQAAttention"));
    CHECK(source.find("def rotate_half(x):") < source.find("def _apply_gqa_rope("));
    CHECK(source.rfind("class GQAAttention") == source.find("class GQAAttention"));
    CHECK(source.rfind("def rotate_half(") == source.find("def rotate_half("));
}
