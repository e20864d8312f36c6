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

TEST_CASE("tricky keys: ASCII case only, '_' and '-' dropped, every other byte kept") {
    CHECK(normalize_family_key("") == "");
    CHECK(normalize_family_key("_-_") == "");
    CHECK(normalize_family_key("Qwen3.5-MoE") == "qwen3.5moe");
    CHECK(normalize_family_key(std::string_view("a\0B", 3)) == std::string_view("a\0b", 3));
    CHECK(normalize_family_key("\xc3\x84rger_X") == "\xc3\x84rgerx");  // Ärger: the Ä stays upper-case
    CHECK(normalize_family_key("ToyForCausalLMForCausalLM") == "toyforcausallm");
    CHECK(normalize_family_key("toy_ForCausal_LM") == "toy");
}

namespace {

famspec::FamilyNames names(std::string model_type, std::string architecture, std::vector<std::string> aliases = {},
                           std::vector<std::string> directory_aliases = {}) {
    return {std::move(model_type), std::move(architecture), std::move(aliases), std::move(directory_aliases)};
}

}  // namespace

TEST_CASE("a family is found among names by the registry's rule") {
    // qwen3_5_text's architecture normalises to qwen3_5's own name, which outranks it; deepseekv2 is
    // deepseek_v2's own key and deepseek_v3's directory alias.
    const std::vector<famspec::FamilyNames> families = {
        names("qwen3_5_text", "Qwen3_5ForCausalLM", {}, {"qwen35text"}),
        names("qwen3_5", "Qwen3_5ForConditionalGeneration"),
        names("deepseek_v3", "DeepseekV3ForCausalLM", {"dsv3"}, {"deepseekv2", "legacy-dir"}),
        names("deepseek_v2", "DeepseekV2ForCausalLM"),
        names("qwen35", "Qwen35Other"),
    };
    using famspec::find_family_among;
    CHECK(find_family_among(families, "Qwen3_5ForCausalLM") == 1);
    CHECK(find_family_among(families, "qwen3_5") == 1);
    CHECK(find_family_among(families, "qwen35") == 4);  // the exact model_type before the key's first owner
    CHECK(find_family_among(families, "QWEN35") == 1);
    CHECK(find_family_among(families, "qwen3_5_text") == 0);
    CHECK(find_family_among(families, "deepseekv2") == 3);
    CHECK(find_family_among(families, "Legacy_Dir") == 2);
    CHECK(find_family_among(families, "DSV3") == 2);
    CHECK(find_family_among(families, "mistral") == std::nullopt);
    CHECK(find_family_among(families, "") == std::nullopt);
    CHECK(find_family_among({}, "qwen3_5") == std::nullopt);
}

TEST_CASE("names of a registry's families find what the registry finds") {
    const auto registry = famspec::test::toy_registry();
    std::vector<famspec::FamilyNames> families;
    for (const auto& family : registry->families()) {
        families.push_back(names(std::string(family->model_type), std::string(family->architecture),
                                 {family->aliases.begin(), family->aliases.end()},
                                 {family->directory_aliases.begin(), family->directory_aliases.end()}));
    }
    REQUIRE_FALSE(families.empty());
    for (const char* spelling :
         {"toy", "ToyForCausalLM", "TOY", "toy_text", "ToyText", "toydir", "toy-dir", "nothing"}) {
        INFO(spelling);
        const auto* found = registry->find_family(spelling);
        const auto among = famspec::find_family_among(families, spelling);
        REQUIRE(among.has_value() == (found != nullptr));
        if (found != nullptr) CHECK(families[*among].model_type == (*found)->model_type);
    }
}
