#include <doctest/doctest.h>

#include "famspec/family_keys.hpp"
#include "famspec/registry.hpp"
#include "famspec/registry_entries.hpp"
#include "toy_registry.hpp"

using famspec::normalize_family_key;

TEST_CASE("family keys normalise like the reference registry") {
    CHECK(normalize_family_key("qwen3_moe") == "qwen3moe");
    CHECK(normalize_family_key("Qwen3MoeForCausalLM") == "qwen3moe");
    CHECK(normalize_family_key("qwen3moe") == "qwen3moe");
    CHECK(normalize_family_key("deepseek_v3") == "deepseekv3");
    CHECK(normalize_family_key("DeepseekV3ForCausalLM") == "deepseekv3");
    CHECK(normalize_family_key("qwen3_5_text") == "qwen35text");
    CHECK(normalize_family_key("KimiK25ForConditionalGeneration") == "kimik25");
    CHECK(normalize_family_key("BertForSequenceClassification") == "bert");
    CHECK(normalize_family_key("LlavaForImageTextToText") == "llava");
    CHECK(normalize_family_key("deep-seek_V3") == "deepseekv3");
    // Only the first matching suffix is stripped, and a bare suffix is not emptied.
    CHECK(normalize_family_key("ForCausalLM") == "forcausallm");
}

TEST_CASE("every spelling of a family finds it, and nothing else does") {
    const auto registry = famspec::test::toy_registry();
    for (const char* spelling : {"toy", "ToyForCausalLM", "TOY", "toy_text", "ToyText", "toydir", "toy-dir"}) {
        INFO(spelling);
        const auto* family = registry->find_family(spelling);
        REQUIRE(family != nullptr);
        CHECK((*family)->model_type == "toy");
        CHECK(registry->explain_family(spelling).family == family);
    }
    CHECK(registry->explain_family("toy").rule == "exact model_type");
    CHECK(registry->explain_family("toy").spellings_tried == std::vector<std::string>{"toy"});
    CHECK(registry->explain_family("ToyForCausalLM").rule == "normalised key 'toy'");
    CHECK(registry->explain_family("toy-dir").rule == "directory alias 'toydir'");
    CHECK(registry->find_family("unregistered_model") == nullptr);
    const auto unknown = registry->explain_family("unregistered_model");
    CHECK(unknown.family == nullptr);
    CHECK(unknown.spellings_tried == std::vector<std::string>{"unregistered_model", "unregisteredmodel"});
}
