#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::Resolver;
using namespace famspec::test;

namespace {

famspec::Plan plan_of(const std::string& text) {
    auto parsed = famspec::parse_plan_text(text, "plan.yaml");
    REQUIRE(parsed.has_value());
    return *parsed;
}

}  // namespace

TEST_CASE("the summary is canonical JSON with the reference's field names") {
    const Resolver resolver(toy_registry());
    const auto plan = plan_of(std::string("model_type: toy\nplan_overrides:\n  - match: '*.attn'\n    when: cp\n") +
                              "    inner_wrapper: " + kToyCp + "\n");
    const auto summary = resolver.declaration_summary(std::nullopt, plan);
    const std::string cp_spec =
        R"({"body_template":null,"imports":[],"kind":"cp_attention","method_name":"forward","snippets":[],)"
        R"("strip_boundary_subpatterns":[],"target_class":null})";
    const std::string expected =
        std::string(R"({"entries":[{"module_type":null,"slot":"inner_wrapper","spec":)") + cp_spec + R"(,"target":")" +
        kToyCp + R"("}],"replacement_specs":{},"strategy_specs":{")" + kToyCp + R"(":)" + cp_spec + "}}";
    CHECK(summary.canonical_json() == expected);
    // Computed independently (hashlib.sha256 over the expected bytes).
    CHECK(summary.digest() == "sha256:da70cd135d2a180076be2b35639541292b99e8aa1a02cdacd6d3a34d5369eb70");
}

TEST_CASE("the summary keeps every entry while the target-keyed maps keep the last") {
    const Resolver resolver(toy_registry());
    const auto plan =
        plan_of(std::string("plan_overrides:\n") +
                "  - match: '*.norm_a'\n    module_type: toy.modeling.NormA\n    replace_module: " + kToyNorm +
                "\n  - match: '*.norm_b'\n    module_type: toy.modeling.NormB\n    replace_module: " + kToyNorm +
                "\n  - match: '*.mlp'\n    when: ep\n    local_compute_fn: " + kToyEp +
                "\n  - match: '*.x'\n    module_type: a.B\n    replace_module: "
                "hyper_parallel.components.toy.tables.ToyTable\n");
    const auto summary = resolver.declaration_summary(std::nullopt, plan);
    REQUIRE(summary.entries.size() == 4);
    CHECK(summary.entries[0].replacement->old_ctor == "NormA");
    CHECK(summary.entries[1].replacement->old_ctor == "NormB");
    CHECK(summary.entries[2].slot == famspec::Slot::local_compute_fn);
    CHECK(summary.entries[2].strategy->target_class == "ToyMoE");
    CHECK(summary.entries[3].status == famspec::ResolutionStatus::not_covered);
    CHECK(summary.entries[3].location.line == 13);
    const std::string json = summary.canonical_json();
    CHECK(json.find(R"("old_ctor":"NormA")") != std::string::npos);
    // In the target-keyed map the later entry wins, as in the reference.
    const std::string map_part = json.substr(json.find(R"("replacement_specs":)"));
    CHECK(map_part.find(R"("old_ctor":"NormA")") == std::string::npos);
    CHECK(map_part.find(R"("old_ctor":"NormB")") != std::string::npos);
    CHECK(map_part.find(R"("hyper_parallel.components.toy.tables.ToyTable":null)") != std::string::npos);
    // Already canonical: re-writing the parsed bytes changes nothing.
    CHECK(famspec::canonical_json(boost::json::parse(json)) == json);
    CHECK(summary.digest() == famspec::sha256_digest(json));
    CHECK(summary.digest().size() == 7 + 64);
}

TEST_CASE("equal plugins and plan give equal bytes, whatever the plugin directory order") {
    const auto plan = plan_of(std::string("plan_overrides:\n  - match: a\n    module_type: m.N\n    replace_module: ") +
                              kToyNorm + "\n  - match: b\n    local_compute_fn: " + kToyEp + "\n");
    const Resolver forward(load_fixtures({"toy_components", "toy"}));
    const Resolver backward(load_fixtures({"toy", "toy_components"}));
    CHECK(forward.declaration_summary(std::nullopt, plan).canonical_json() ==
          backward.declaration_summary(std::nullopt, plan).canonical_json());
}

TEST_CASE("the same target path built differently gives a different signature") {
    const auto plan = plan_of(std::string("plan_overrides:\n  - match: a\n    module_type: m.N\n    replace_module: ") +
                              kToyNorm + "\n");
    const Resolver first(toy_registry());
    const Resolver second(reregistered_registry());
    CHECK(first.declaration_summary("toy", plan).digest() != second.declaration_summary("toy", plan).digest());
}

TEST_CASE("an explicit model_type overrides the plan's, and with neither each target infers its family") {
    const Resolver resolver(toy_registry());
    const auto plan =
        plan_of(std::string("model_type: other_toy\nplan_overrides:\n  - match: a\n    module_type: m.N\n") +
                "    replace_module: " + kToyNorm + "\n");
    CHECK(resolver.declaration_summary(std::nullopt, plan).entries[0].status == famspec::ResolutionStatus::not_covered);
    CHECK(resolver.declaration_summary("ToyForCausalLM", plan).entries[0].status ==
          famspec::ResolutionStatus::resolved);
    auto inferred = plan;
    inferred.model_type.reset();
    CHECK(resolver.declaration_summary(std::nullopt, inferred).entries[0].status ==
          famspec::ResolutionStatus::resolved);
}

TEST_CASE("a plan of components named directly has one digest under any family, registered or not") {
    const Resolver resolver(toy_registry());
    const auto plan = plan_of(
        "plan_overrides:\n  - match: '*.norm'\n    module_type: toy.modeling_toy.ToyRMSNorm\n"
        "    replace_module: hyper_parallel.components.toy.norms.ToyNorm\n");
    CHECK_FALSE(famspec::plan_reads_family(plan));
    const auto plain = resolver.declaration_summary(std::nullopt, plan);
    REQUIRE(plain.entries.size() == 1);
    CHECK(plain.entries[0].status == famspec::ResolutionStatus::resolved);
    for (const char* family : {"toy", "unregistered_model", "Qwen3ForCausalLM"}) {
        CAPTURE(family);
        CHECK(resolver.declaration_summary(std::string(family), plan).digest() == plain.digest());
        auto written = plan;
        written.model_type = family;  // the plan's own model_type counts the same
        CHECK(resolver.declaration_summary(std::nullopt, written).digest() == plain.digest());
    }
    auto mixed = plan;
    mixed.entries.push_back(plan_of(std::string("plan_overrides:\n  - match: a\n    module_type: m.N\n") +
                                    "    replace_module: " + kToyNorm + "\n")
                                .entries[0]);
    CHECK(famspec::plan_reads_family(mixed));
}
