// The registry description: what the audit (and any tool outside the process) reads of the plugins.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "famspec/canonical_json.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/registry_description.hpp"
#include "process.hpp"

namespace json = boost::json;
using famspec::test::plugin_dir;

namespace {

std::string describe_shipped() {
    famspec::LoadOptions options;
    options.directories.emplace_back(plugin_dir());
    const auto registry = famspec::load_plugins(options);
    REQUIRE(registry->all_ok());
    return famspec::describe_registry_json(*registry);
}

const json::object& by_key(const json::value& list, std::string_view key, std::string_view value) {
    for (const auto& item : list.as_array()) {
        if (item.as_object().at(key).as_string() == value) return item.as_object();
    }
    FAIL("no entry with ", key, " = ", value);
    throw std::logic_error("unreachable");
}

std::string strip_sites(json::value value) {
    // "where" holds the plugin's source path, which depends on the checkout.
    if (value.is_object()) {
        value.as_object().erase("where");
        for (auto& [key, item] : value.as_object()) item = json::parse(strip_sites(item));
    } else if (value.is_array()) {
        for (auto& item : value.as_array()) item = json::parse(strip_sites(item));
    }
    return famspec::canonical_json(value);
}

}  // namespace

TEST_CASE("the description is canonical and the same for the same plugins") {
    const std::string first = describe_shipped();
    CHECK(first == describe_shipped());
    CHECK(first == famspec::canonical_json(json::parse(first)));
    const json::value described = json::parse(first);
    CHECK(described.at("format").as_int64() == 1);
    std::vector<std::string> model_types;
    for (const auto& family : described.at("families").as_array()) {
        model_types.emplace_back(family.at("model_type").as_string());
    }
    CHECK(std::is_sorted(model_types.begin(), model_types.end()));
    for (const auto& plugin : described.at("plugins").as_array()) CHECK(plugin.at("status").as_string() == "ok");
}

TEST_CASE("a factory's full construction declaration") {
    const json::value described = json::parse(describe_shipped());
    const auto& qwen = by_key(described.at("families"), "model_type", "qwen3_moe");
    CHECK(qwen.at("architecture").as_string() == "Qwen3MoeForCausalLM");
    CHECK(qwen.at("plugin").as_string() == "qwen3_moe");
    const auto& attention =
        by_key(qwen.at("factories"), "target",
               "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_flash_attention");
    // The runtime line `famspec sync` read the declaration from.
    CHECK(attention.at("where").as_string() == "hyper_parallel/models/qwen3_moe/adapter/replacements.py:13");
    CHECK(
        strip_sites(attention) ==
        R"({"construction":{"arguments":[{"binding":"parameter","name":"module_fqn","value":"module_fqn"},)"
        R"({"binding":"parameter","name":"context","value":"context"},)"
        R"({"binding":"interface","name":"attention_interface","value":"run_qwen3_moe_flash_attention"}],)"
        R"("component":"GQAAttention","import_module":"hyper_parallel.components.modules","mode":"wrap_source",)"
        R"("module_passed":"keyword"},"parameters":[{"kind":"positional","name":"module"},)"
        R"({"default":"''","kind":"positional","name":"module_fqn"},{"default":"None","kind":"positional","name":"context"}],)"
        R"("plugin":"qwen3_moe","runtime_only":false,)"
        R"("target":"hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_flash_attention"})");
    const auto& wrapper = qwen.at("cp_wrappers").as_array().at(0).as_object();
    CHECK(wrapper.at("target").as_string() ==
          "hyper_parallel.models.qwen3_moe.adapter.distributed.context_parallel.qwen3_moe_flash_attention_cp_mask_"
          "wrapper");
    const auto& archetype = qwen.at("archetypes").as_array().at(0).as_object();
    CHECK(archetype.at("compute_factory").as_string() ==
          "hyper_parallel.models.qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn");
    CHECK(famspec::canonical_json(archetype.at("options")) ==
          R"([{"default":"False","kind":"keyword_only","name":"use_grouped_gemm"}])");
}

TEST_CASE("positional module, runtime-only factories and compute functions") {
    const json::value described = json::parse(describe_shipped());
    const auto& v41 = by_key(described.at("families"), "model_type", "deepseek_v41");
    const auto& shared = v41.at("factories").as_array().at(0).as_object();
    CHECK(shared.at("construction").at("module_passed").as_string() == "positional");
    CHECK(shared.at("construction").at("arguments").as_array().empty());
    CHECK(v41.at("compute_functions").as_array().size() == 5);
    const auto& v3 = by_key(described.at("families"), "model_type", "deepseek_v3");
    const auto& linear =
        by_key(v3.at("factories"), "target", "hyper_parallel.models.deepseek_v3.adapter.replacements.replace_linear");
    CHECK(linear.at("runtime_only").as_bool());
    CHECK(linear.at("construction").is_null());
    // A CP wrapper's options, with the values a Literal[...] allows.
    const auto& mla = v3.at("cp_wrappers").as_array().at(0).as_object();
    CHECK(mla.at("target").as_string() ==
          "hyper_parallel.models.deepseek_v3.adapter.distributed.context_parallel.mla_cp_wrapper");
    CHECK(
        famspec::canonical_json(mla.at("options")) ==
        R"([{"allowed":["'expanded_ulysses'","'latent_kv_head'"],"default":"'expanded_ulysses'","kind":"keyword_only",)"
        R"("name":"strategy"},)"
        R"({"allowed":["'npu'","'sdpa'"],"default":"'npu'","kind":"keyword_only","name":"backend"}])");
    CHECK(famspec::canonical_json(v3.at("provider_modules")) ==
          R"(["hyper_parallel.models.deepseek_v3.adapter.conversion.module_replacement",)"
          R"("hyper_parallel.models.deepseek_v3.adapter.replacements"])");
    CHECK(linear.at("runtime_only_reason").as_string() == "builds through LowPrecisionLinear.from_linear at runtime");
    CHECK(famspec::canonical_json(v3.at("directory_aliases")) == R"(["deepseekv2"])");
}

TEST_CASE("provider modules: declared, or where the factories live") {
    const json::value described = json::parse(describe_shipped());
    const auto& qwen = by_key(described.at("families"), "model_type", "qwen3_moe");
    CHECK(famspec::canonical_json(qwen.at("provider_modules")) ==
          R"(["hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement",)"
          R"("hyper_parallel.models.qwen3_moe.adapter.replacements"])");
    // One factory object each, listed under its own target in the first declared provider.
    CHECK(qwen.at("factories").as_array().size() == 3);
    const auto& v41 = by_key(described.at("families"), "model_type", "deepseek_v41");
    CHECK(famspec::canonical_json(v41.at("provider_modules")) ==
          R"(["hyper_parallel.models.deepseek_v41.adapter.replacements"])");
    for (const char* family : {"deepseek_v2", "qwen3_5_text", "qwen4_exp_text", "kimi_k3"}) {
        CAPTURE(family);
        CHECK(by_key(described.at("families"), "model_type", family).at("provider_modules").as_array().empty());
    }
}

TEST_CASE("a component's signature: kinds, literal and expression defaults, module") {
    const json::value described = json::parse(describe_shipped());
    const auto& norm = by_key(described.at("components"), "name", "RMSNorm");
    CHECK(norm.at("defining_module").as_string() == "hyper_parallel.components.modules.rms_norm");
    CHECK(norm.at("import_module").as_string() == "hyper_parallel.components.modules");
    CHECK(norm.at("plugin").as_string() == "components");
    CHECK(norm.at("takes_module").as_bool());
    CHECK(famspec::canonical_json(norm.at("parameters")) ==
          R"([{"default":"None","kind":"positional","name":"hidden_size"},)"
          R"({"default":"1e-05","kind":"positional","name":"eps"},)"
          R"({"default":"None","kind":"keyword_only","name":"module"},)"
          R"({"default":"''","kind":"keyword_only","name":"module_fqn"},)"
          R"({"default":"None","kind":"keyword_only","name":"context"}])");
    const auto& gqa = by_key(described.at("components"), "name", "GQAAttention");
    CHECK(
        famspec::canonical_json(gqa.at("parameters").as_array().back()) ==
        R"({"default_expression":"npu_fusion_attention_forward","kind":"keyword_only","name":"attention_interface"})");
    CHECK(gqa.at("defining_module").as_string() == "hyper_parallel.components.modules.gqa_attention");
    const auto& ngram = by_key(described.at("components"), "name", "NgramHashMapping");
    CHECK_FALSE(ngram.at("takes_module").as_bool());
    CHECK(famspec::canonical_json(ngram.at("parameters")) ==
          R"([{"kind":"positional","name":"assets"},{"kind":"positional","name":"layer_id"}])");
    const auto& shared = by_key(described.at("components"), "name", "SharedCompressedDSAAttention");
    CHECK(famspec::canonical_json(shared.at("parameters")) ==
          R"([{"kind":"positional","name":"module"},)"
          R"({"default":"''","kind":"positional","name":"module_fqn"},)"
          R"({"default":"None","kind":"positional","name":"context"}])");
    const auto& mla = by_key(described.at("components"), "name", "MLAAttention");
    CHECK(
        famspec::canonical_json(mla.at("parameters").as_array().back()) ==
        R"({"default_expression":"npu_fusion_attention_forward","kind":"keyword_only","name":"attention_interface"})");
    const auto& experts = by_key(described.at("components"), "name", "GroupedExperts");
    CHECK(famspec::canonical_json(experts.at("parameters")) ==
          R"([{"kind":"keyword_only","name":"module"},)"
          R"({"default":"''","kind":"keyword_only","name":"module_fqn"},)"
          R"({"default":"None","kind":"keyword_only","name":"context"}])");
}
