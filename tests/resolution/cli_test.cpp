// The resolution commands through the real CLI: exit codes, output shapes and messages.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "famspec/resolver.hpp"
#include "process.hpp"
#include "toy_registry.hpp"

using namespace famspec::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> toy_cli(std::vector<std::string> arguments) {
    std::vector<std::string> out{"--plugin-path", fixture_dir("toy_components"), "--plugin-path", fixture_dir("toy")};
    out.insert(out.end(), arguments.begin(), arguments.end());
    return out;
}

std::string write_plan(const std::string& name, const std::string& text) {
    std::string pattern = (fs::temp_directory_path() / "famspec-plan-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    const std::string path = pattern + "/" + name;
    std::ofstream(path) << text;
    return path;
}

const std::string kCoveredPlan =
    std::string("model_type: toy\nplan_overrides:\n") +
    "  - match: '*.norm'\n    module_type: toy.modeling.ToyRMSNorm\n    replace_module:\n" +
    "      _target_: " + kToyNorm + "\n  - match: '*.mlp'\n    when: ep\n" +
    "    local_compute_fn:\n      _target_: " + kToyEp + "\n      use_grouped_gemm: true\n";

const std::string kGappyPlan =
    kCoveredPlan + "  - match: '*.attn'\n    when: cp\n    inner_wrapper: sdpa_qkv\n" +
    "  - match: '*.x'\n    module_type: a.B\n    replace_module:\n      _target_: " + kToyNorm +
    "\n      use_fused_ops: false\n";

}  // namespace

TEST_CASE("resolve prints one spec in the summary's form, or null with the reason") {
    const auto ok = run_cli(toy_cli({"resolve", "--target", kToyNorm, "--module-type", kToyModuleType}));
    CHECK(ok.exit_code == 0);
    const famspec::Resolver resolver(toy_registry());
    CHECK(ok.out ==
          famspec::to_canonical_json(*resolver.replacement_spec_for(kToyNorm, std::nullopt, kToyModuleType).value) +
              "\n");

    const auto gap = run_cli(toy_cli({"resolve", "--target", kToyNorm}));
    CHECK(gap.exit_code == 1);
    CHECK(gap.out == "null\n");
    CHECK(gap.err.find("not covered: missing module_type") != std::string::npos);

    const auto ep = run_cli(toy_cli(
        {"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--option", "use_grouped_gemm=true", "--json"}));
    CHECK(ep.exit_code == 0);
    CHECK(ep.out.find(R"("target_class":"ToyMoE")") != std::string::npos);
    const auto typed = run_cli(
        toy_cli({"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--option", "use_grouped_gemm=yes"}));
    CHECK(typed.exit_code == 1);
    CHECK(typed.err.find("expects bool") != std::string::npos);

    CHECK(run_cli(toy_cli({"resolve", "--target", kToyCp, "--slot", "inner_wrapper"})).exit_code == 0);
    CHECK(run_cli(toy_cli({"resolve", "--target", kToyCp, "--slot", "local_compute_fn"})).exit_code == 1);
    CHECK(run_cli(toy_cli({"resolve", "--target", kToyCp, "--slot", "sideways"})).exit_code == 2);
    CHECK(run_cli(toy_cli({"resolve"})).exit_code == 2);
    CHECK(run_cli(toy_cli({"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--option", "novalue"}))
              .exit_code == 2);
}

TEST_CASE("resolve --explain shows the decision trace") {
    const auto r = run_cli(toy_cli({"resolve", "--target", kToyNorm, "--model-type", "ToyForCausalLM", "--module-type",
                                    kToyModuleType, "--explain"}));
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("explain: spellings tried: ToyForCausalLM, toy\n") != std::string::npos);
    CHECK(r.err.find("explain: family: toy\n") != std::string::npos);
    CHECK(r.err.find("explain: plugin: toy\n") != std::string::npos);
    CHECK(r.err.find("explain: channel: factory\n") != std::string::npos);
    CHECK(r.err.find("explain: cache: miss\n") != std::string::npos);
    CHECK(r.err.find("explain: rule: factory construction\n") != std::string::npos);
    CHECK(r.err.find("explain: outcome: resolved\n") != std::string::npos);
}

TEST_CASE("summary prints canonical JSON or its digest, and exits 2 on bad input") {
    const std::string plan = write_plan("plan.yaml", kGappyPlan);
    const auto json = run_cli(toy_cli({"summary", plan}));
    CHECK(json.exit_code == 0);  // not-covered entries are null, not failures
    auto parsed = famspec::parse_plan_file(plan);
    REQUIRE(parsed.plan.has_value());
    const famspec::Resolver resolver(toy_registry());
    const auto expected = resolver.declaration_summary(std::nullopt, *parsed.plan);
    CHECK(json.out == expected.canonical_json() + "\n");
    CHECK(json.out.find(R"("sdpa_qkv":null)") != std::string::npos);

    const auto digest = run_cli(toy_cli({"summary", plan, "--digest"}));
    CHECK(digest.exit_code == 0);
    CHECK(digest.out == expected.digest() + "\n");
    // Another family spelling selects the same declarations: same bytes.
    CHECK(run_cli(toy_cli({"summary", plan, "--digest", "--model-type", "ToyForCausalLM"})).out == digest.out);

    const std::string bad = write_plan("bad.yaml", "plan_overrides:\n  - match: x\n    replace_module: a.b\n");
    const auto refused = run_cli(toy_cli({"summary", bad}));
    CHECK(refused.exit_code == 2);
    CHECK(refused.out.empty());
    CHECK(refused.err.find("bad.yaml:2:5: an entry with replace_module needs module_type") != std::string::npos);
    CHECK(run_cli(toy_cli({"summary", "/nonexistent/plan.yaml"})).exit_code == 2);
}

TEST_CASE("check lists every gap at once, with its reason") {
    const std::string covered = write_plan("covered.yaml", kCoveredPlan);
    const auto ok = run_cli(toy_cli({"check", covered}));
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.find("2 targets, 2 covered, 0 not covered (model_type toy)") != std::string::npos);

    const std::string gappy = write_plan("gappy.yaml", kGappyPlan);
    const auto gaps = run_cli(toy_cli({"check", gappy}));
    CHECK(gaps.exit_code == 1);
    CHECK(gaps.out.find("gappy.yaml:14:5: inner_wrapper sdpa_qkv: not covered: sdpa_qkv is not a CP wrapper registered "
                        "by family 'toy'") != std::string::npos);
    CHECK(gaps.out.find("replace_module " + std::string(kToyNorm) + ": not covered: unknown option 'use_fused_ops'") !=
          std::string::npos);
    CHECK(gaps.out.find("4 targets, 2 covered, 2 not covered") != std::string::npos);

    const auto as_json = run_cli(toy_cli({"check", gappy, "--json"}));
    CHECK(as_json.exit_code == 1);
    const auto value = boost::json::parse(as_json.out);
    const auto& object = value.as_object();
    CHECK(object.at("gaps").as_int64() == 2);
    CHECK(object.at("covered").as_int64() == 2);
    CHECK(object.at("model_type").as_string() == "toy");
    const auto& entries = object.at("entries").as_array();
    REQUIRE(entries.size() == 4);
    CHECK(entries[2].as_object().at("status").as_string() == "not_covered");
    CHECK(entries[2].as_object().at("slot").as_string() == "inner_wrapper");
    CHECK(entries[0].as_object().at("status").as_string() == "resolved");

    const std::string bad = write_plan("bad.yaml", "plan_overrides: {}\n");
    const auto refused = run_cli(toy_cli({"check", bad}));
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("bad.yaml:1:17: 'plan_overrides': expected a list, found a mapping") != std::string::npos);
}

TEST_CASE("check --allow-runtime-only reports declared runtime-only targets without failing") {
    const std::string plan =
        write_plan("runtime.yaml", kCoveredPlan + "  - match: '*.lin'\n    module_type: a.B\n    replace_module: " +
                                       "hyper_parallel.models.toy.adapter.replacements.replace_toy_runtime\n");
    const auto strict = run_cli(toy_cli({"check", plan}));
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("not covered: runtime-only factory: builds through ToyNorm.from_module") !=
          std::string::npos);
    const auto allowed = run_cli(toy_cli({"check", plan, "--allow-runtime-only"}));
    CHECK(allowed.exit_code == 0);
    CHECK(allowed.out.find("runtime-only (allowed): runtime-only factory") != std::string::npos);
    CHECK(allowed.out.find("3 targets, 2 covered, 0 not covered, 1 runtime-only") != std::string::npos);
    const auto as_json = run_cli(toy_cli({"check", plan, "--json", "--allow-runtime-only"}));
    const auto value = boost::json::parse(as_json.out);
    CHECK(value.at("runtime_only_allowed").as_int64() == 1);
    CHECK(value.at("gaps").as_int64() == 0);
    CHECK(value.at("entries").as_array()[2].at("gap").as_string() == "runtime_only");
    CHECK(value.at("entries").as_array()[0].at("gap").is_null());
}
