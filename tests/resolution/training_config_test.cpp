// Whole training configs through the plan reader: sections famspec does not read are left alone,
// positions point into the real file, and the family comes from the first source that names it.
#include "training_config.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "famspec/declaration_summary.hpp"
#include "famspec/names.hpp"
#include "famspec/plan.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::FamilySource;
using famspec::parse_plan_text;
using namespace famspec::test;

namespace {

// Folded targets, an anchor reused by an alias, and keys the runtime reads and famspec does not.
std::string overrides() {
    return std::string("plan_overrides:\n") +                  // line 1
           "  - match: ['*.norm', model.norm]\n" +             // 2
           "    module_type: toy.modeling_toy.ToyRMSNorm\n" +  // 3
           "    replace_module: &norm\n" +                     // 4
           "      _target_: >-\n" +                            // 5
           "        " + kToyNorm + "\n" +                      // 6
           "    tp_divide_attrs: [num_heads]\n" +              // 7
           "    placement: {params: replicate}\n" +            // 8
           "  - match: '*.mlp'\n" +                            // 9
           "    when: ep\n" +                                  // 10
           "    module_tpye: toy.modeling_toy.ToyMoE\n" +      // 11
           "    local_compute_fn:\n" +                         // 12
           "      _target_: " + kToyEp + "\n" +                // 13
           "  - match: model.final_norm\n" +                   // 14
           "    module_type: toy.modeling_toy.ToyRMSNorm\n" +  // 15
           "    replace_module: *norm\n";                      // 16
}

std::size_t lines_in(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("a whole training config is read: plan_overrides and the family, every other section left alone") {
    const std::string head = config_head("hyper_parallel.models.toy.adapter.validation.build_toy");
    const std::string text = head + overrides() + config_tail();
    const auto parsed = parse_plan_text(text, "train.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
    const famspec::Plan& plan = *parsed;
    REQUIRE(plan.entries.size() == 3);
    const std::size_t base = lines_in(head);  // plan_overrides: is line base + 1
    CHECK(plan.entries[0].location.line == base + 2);
    CHECK(plan.entries[0].replace_module->path == kToyNorm);  // the folded scalar, joined
    CHECK(plan.entries[0].replace_module->location.line == base + 4);
    CHECK(plan.entries[2].replace_module->path == kToyNorm);  // through the alias
    CHECK(plan.entries[2].replace_module->location.line == base + 16);
    CHECK(plan.model_target == "hyper_parallel.models.toy.adapter.validation.build_toy");

    // The two unread entry keys are warnings, with the real position and the nearest known key.
    REQUIRE(plan.warnings.size() == 2);
    CHECK(plan.warnings[0].to_string() ==
          "train.yaml:" + std::to_string(base + 8) +
              ":5: warning: plan_overrides entry key 'placement' is not read by famspec");
    CHECK(plan.warnings[0].suggestion.empty());
    CHECK(plan.warnings[1].to_string() ==
          "train.yaml:" + std::to_string(base + 11) +
              ":5: warning: plan_overrides entry key 'module_tpye' is not read by famspec (did you mean "
              "`module_type`?)");
    CHECK(plan.warnings[1].suggestion == "module_type");

    // Under strict reading the first unread key is an error at the same place.
    const auto strict = parse_plan_text(text, "train.yaml", {}, true);
    REQUIRE(!strict.has_value());
    CHECK(strict.error().first().to_string() ==
          "train.yaml:" + std::to_string(base + 8) +
              ":5: plan_overrides entry key 'placement' is not read by famspec (an error under strict reading)");
}

TEST_CASE("the family comes from the caller, model_type, architecture, model._target_, else each target") {
    const auto family_of = [](const std::string& text, const std::optional<std::string>& caller = std::nullopt) {
        const auto parsed = parse_plan_text(text, "train.yaml");
        REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
        return famspec::plan_family(*parsed, caller);
    };
    const std::string builder = "hyper_parallel.models.toy.adapter.validation.build_toy";
    const std::string body = "plan_overrides: []\n";
    auto f = family_of(config_head(builder) + body);
    CHECK(f.name == "toy");
    CHECK(f.source == FamilySource::model_target);
    CHECK(famspec::name_of(f.source) == "model._target_");

    f = family_of(config_head(builder) + "architecture: ToyForCausalLM\n" + body);
    CHECK(f.name == "ToyForCausalLM");
    CHECK(f.source == FamilySource::architecture);

    f = family_of("architecture: ToyForCausalLM\nmodel_type: toy_text\n" + config_head(builder) + body);
    CHECK(f.name == "toy_text");
    CHECK(f.source == FamilySource::model_type);

    f = family_of(config_head(builder) + body, std::string("other_toy"));
    CHECK(f.name == "other_toy");
    CHECK(f.source == FamilySource::caller);

    // A builder outside hyper_parallel.models, or none at all, names no family.
    f = family_of(config_head("my_lab.build_model") + body);
    CHECK_FALSE(f.name.has_value());
    CHECK(f.source == FamilySource::per_target);
    f = family_of(config_head("") + body);
    CHECK(f.source == FamilySource::per_target);
    // A model section of another shape is the runtime's business.
    f = family_of("model: /models/toy\n" + body);
    CHECK(f.source == FamilySource::per_target);
}

TEST_CASE("with the plugins loaded, model._target_ gives the family only when it names a registered one") {
    const auto registry = toy_registry();
    const auto family_of = [&](const std::string& text, const std::optional<std::string>& caller = std::nullopt) {
        const auto parsed = parse_plan_text(text, "train.yaml");
        REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
        return famspec::plan_family(*parsed, caller, *registry);
    };
    const std::string body = "plan_overrides: []\n";
    auto f = family_of(config_head("hyper_parallel.models.toy.adapter.validation.build_toy") + body);
    CHECK(f.name == "toy");
    CHECK(f.source == FamilySource::model_target);
    CHECK_FALSE(f.model_target_names_no_family);
    // The runtime's generic builders sit where a family directory would: they name no family.
    for (const std::string builder :
         {"hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained",
          "hyper_parallel.models._transformers.HyperAutoModelForCausalLM.from_pretrained"}) {
        CAPTURE(builder);
        f = family_of(config_head(builder) + body);
        CHECK_FALSE(f.name.has_value());
        CHECK(f.source == FamilySource::per_target);
        CHECK(f.model_target_names_no_family);
    }
    // A family given explicitly stays as given, registered or not: the CLI refuses an unknown one.
    f = family_of(config_head("hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained") + body,
                  std::string("toy_typo"));
    CHECK(f.name == "toy_typo");
    CHECK(f.source == FamilySource::caller);
    CHECK(famspec::names_family_explicitly(FamilySource::model_type));
    CHECK_FALSE(famspec::names_family_explicitly(FamilySource::model_target));
}

TEST_CASE("a generic builder's config resolves as the per-target plan does") {
    const famspec::Resolver resolver(toy_registry());
    const auto summary_of = [&](const std::string& head) {
        const auto parsed = parse_plan_text(head + overrides(), "train.yaml");
        REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
        return resolver.declaration_summary(std::nullopt, *parsed).canonical_json();
    };
    const std::string generic =
        summary_of(config_head("hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained"));
    CHECK(generic == summary_of(config_head("")));
    CHECK(generic == summary_of(config_head("hyper_parallel.models.toy.adapter.validation.build_toy")));
    CHECK(generic.find("unknown family") == std::string::npos);
}

TEST_CASE("an empty plan_overrides in a full config is a plan with no entries") {
    const auto parsed = parse_plan_text(config_head("") + "plan_overrides: []\n" + config_tail(), "train.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
    CHECK(parsed->entries.empty());
    CHECK(parsed->warnings.empty());
}

TEST_CASE("sections famspec does not read may hold anything; a near miss of a key it reads is a warning") {
    const std::string text =
        "training: {<<: {a: 1}, a: 2, a: 3}\n"  // merge keys and repeated keys in the runtime's sections
        "dataset: [[1, 2], {x: !!binary aGVsbG8=}]\n"
        "model_typ: toy\n"
        "plan_overrides: []\n";
    const auto parsed = parse_plan_text(text, "train.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
    REQUIRE(parsed->warnings.size() == 1);
    CHECK(parsed->warnings[0].to_string() ==
          "train.yaml:3:1: warning: top-level key 'model_typ' is not read by famspec (did you mean `model_type`?)");
    CHECK_FALSE(parsed->model_type.has_value());
    CHECK(parse_plan_text(text, "train.yaml", {}, true).error().first().location.line == 3);
}

TEST_CASE("a config of realistic size fits the reader's limits") {
    const std::string text = realistic_config(overrides(), 400);
    CHECK(lines_in(text) == 400);
    const auto parsed = parse_plan_text(text, "train.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
    CHECK(parsed->entries.size() == 3);
    // The whole config counts against the node budget: a budget below its size refuses it.
    famspec::PlanLimits tight;
    tight.max_nodes = 500;
    const auto refused = parse_plan_text(text, "train.yaml", tight);
    REQUIRE(!refused.has_value());
    CHECK(refused.error().first().message.rfind("the plan expands to more than 500 nodes", 0) == 0);
}

TEST_CASE("damaged single tokens are errors at once, not an endless read") {
    for (const std::string text : {",", ",d", "\n,ull"}) {
        CAPTURE(text);
        const auto parsed = parse_plan_text(text, "plan.yaml");
        REQUIRE(!parsed.has_value());
        CHECK(parsed.error().first().message == "not valid YAML: unexpected ','");
    }
    const auto second = parse_plan_text("plan_overrides: []\n---\nplan_overrides: []\n", "plan.yaml");
    REQUIRE(!second.has_value());
    CHECK(second.error().first().to_string() == "plan.yaml:2:1: the plan holds a second YAML document; expected one");
}

TEST_CASE("a repeated key is found however large the map") {
    std::string text = "plan_overrides:\n  - match: x\n    local_compute_fn:\n      _target_: a.b\n";
    for (int i = 0; i < 20000; ++i) text += "      o" + std::to_string(i) + ": 1\n";
    text += "      o7: 2\n";
    const auto parsed = parse_plan_text(text, "plan.yaml");
    REQUIRE(!parsed.has_value());
    CHECK(parsed.error().first().to_string() == "plan.yaml:20005:7: duplicate key 'o7'");
}
