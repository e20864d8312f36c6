// The resolution commands through the real CLI: exit codes, output shapes and messages.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "famspec/declaration_summary.hpp"
#include "famspec/resolver.hpp"
#include "process.hpp"
#include "toy_registry.hpp"
#include "training_config.hpp"

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
    CHECK(ok.out == famspec::to_canonical_json(
                        *resolver.replacement_spec_for(kToyNorm, std::nullopt, kToyModuleType).resolved()->spec) +
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
    // Each declaration names the plugin that made it: the component comes from another plugin.
    CHECK(r.err.find("explain: declared: family toy by plugin toy\n"
                     "explain: declared: factory " +
                     std::string(kToyNorm) +
                     " by plugin toy\n"
                     "explain: declared: component hyper_parallel.components.toy.norms.ToyNorm by plugin "
                     "toy_components\n") != std::string::npos);
}

TEST_CASE("summary prints canonical JSON or its digest, and exits 2 on bad input") {
    const std::string plan = write_plan("plan.yaml", kGappyPlan);
    const auto json = run_cli(toy_cli({"summary", plan}));
    CHECK(json.exit_code == 0);  // not-covered entries are null, not failures
    auto parsed = famspec::parse_plan_file(plan);
    REQUIRE(parsed.has_value());
    const famspec::Resolver resolver(toy_registry());
    const auto expected = resolver.declaration_summary(std::nullopt, *parsed);
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
    CHECK(ok.out.find("2 targets, 2 covered, 0 not covered (model_type toy from model_type)") != std::string::npos);

    const std::string gappy = write_plan("gappy.yaml", kGappyPlan);
    const auto gaps = run_cli(toy_cli({"check", gappy}));
    CHECK(gaps.exit_code == 1);
    CHECK(gaps.out.find("gappy.yaml:14:5: inner_wrapper sdpa_qkv: not covered: sdpa_qkv is not a CP wrapper registered "
                        "by family 'toy'") != std::string::npos);
    CHECK(gaps.out.find("replace_module " + std::string(kToyNorm) +
                        ": covered\n  ignored_option: option 'use_fused_ops' is ignored") != std::string::npos);
    CHECK(gaps.out.find("4 targets, 3 covered, 1 not covered, 1 diagnostics") != std::string::npos);

    const auto as_json = run_cli(toy_cli({"check", gappy, "--json"}));
    CHECK(as_json.exit_code == 1);
    const auto value = boost::json::parse(as_json.out);
    const auto& object = value.as_object();
    CHECK(object.at("gaps").as_int64() == 1);
    CHECK(object.at("covered").as_int64() == 3);
    CHECK(object.at("model_type_source").as_string() == "model_type");
    CHECK(object.at("model_type").as_string() == "toy");
    const auto& entries = object.at("entries").as_array();
    REQUIRE(entries.size() == 4);
    CHECK(entries[2].as_object().at("status").as_string() == "not_covered");
    CHECK(entries[2].as_object().at("slot").as_string() == "inner_wrapper");
    CHECK(entries[0].as_object().at("status").as_string() == "resolved");
    CHECK(entries[3].as_object().at("diagnostics").as_array()[0].at("kind").as_string() == "ignored_option");

    const auto strict = run_cli(toy_cli({"check", gappy, "--strict"}));
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("replace_module " + std::string(kToyNorm) +
                          ": not covered: option 'use_fused_ops' is ignored") != std::string::npos);
    CHECK(strict.out.find("4 targets, 2 covered, 2 not covered, 1 diagnostics") != std::string::npos);

    const std::string bad = write_plan("bad.yaml", "plan_overrides: {}\n");
    const auto refused = run_cli(toy_cli({"check", bad}));
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("bad.yaml:1:17: 'plan_overrides': expected a list, found a mapping") != std::string::npos);
}

TEST_CASE("runtime-only targets are native by default; --strict fails on them unless --allow-runtime-only") {
    const std::string plan =
        write_plan("runtime.yaml", kCoveredPlan + "  - match: '*.lin'\n    module_type: a.B\n    replace_module: " +
                                       "hyper_parallel.models.toy.adapter.replacements.replace_toy_runtime\n");
    const auto lenient = run_cli(toy_cli({"check", plan}));
    CHECK(lenient.exit_code == 0);
    CHECK(lenient.out.find("replace_toy_runtime: native\n  runtime_only: runtime-only factory: builds through "
                           "ToyNorm.from_module\n") != std::string::npos);
    CHECK(lenient.out.find("3 targets, 2 covered, 0 not covered, 1 native, 1 diagnostics") != std::string::npos);
    const auto strict = run_cli(toy_cli({"check", plan, "--strict"}));
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("not covered: runtime-only factory: builds through ToyNorm.from_module") !=
          std::string::npos);
    const auto allowed = run_cli(toy_cli({"check", plan, "--strict", "--allow-runtime-only"}));
    CHECK(allowed.exit_code == 0);
    CHECK(allowed.out.find("runtime-only (allowed): runtime-only factory") != std::string::npos);
    CHECK(allowed.out.find("3 targets, 2 covered, 0 not covered, 1 runtime-only") != std::string::npos);
    const auto as_json = run_cli(toy_cli({"check", plan, "--json", "--strict", "--allow-runtime-only"}));
    const auto value = boost::json::parse(as_json.out);
    CHECK(value.at("runtime_only_allowed").as_int64() == 1);
    CHECK(value.at("gaps").as_int64() == 0);
    CHECK(value.at("entries").as_array()[2].at("gap").as_string() == "runtime_only");
    CHECK(value.at("entries").as_array()[0].at("gap").is_null());
}

namespace {

// A whole training config around the toy targets: the family comes from model._target_.
std::string toy_training_config(const std::string& extra_entry_key) {
    return config_head("hyper_parallel.models.toy.adapter.validation.build_toy") + "plan_overrides:\n" +
           "  - match: '*.norm'\n    module_type: " + kToyModuleType + "\n" + extra_entry_key +
           "    replace_module:\n      _target_: >-\n        " + kToyNorm + "\n      use_fused_ops: false\n" +
           "  - match: '*.mlp'\n    when: ep\n    local_compute_fn: " + kToyEp + "\n" +
           "  - match: '*.attn'\n    when: cp\n    inner_wrapper: "
           "hyper_parallel.models.toy.adapter.cp.other_wrapper\n" +
           config_tail();
}

}  // namespace

TEST_CASE("check, summary and resolve read whole training configs; --strict fails on what defaults allow") {
    const std::string path = write_plan("train.yaml", toy_training_config("    placement: {a: b}\n"));
    const std::string head = config_head("hyper_parallel.models.toy.adapter.validation.build_toy");
    const auto base = static_cast<std::size_t>(std::count(head.begin(), head.end(), '\n'));
    const std::string line = std::to_string(base + 4);  // the unread key, after plan_overrides, match, module_type

    const auto ok = run_cli(toy_cli({"check", path}));
    CAPTURE(ok.err);
    CHECK(ok.exit_code == 0);
    CHECK(ok.err.find(path + ":" + line + ":5: warning: plan_overrides entry key 'placement' is not read by famspec") !=
          std::string::npos);
    CHECK(ok.out.find("3 targets, 3 covered, 0 not covered, 2 diagnostics (model_type toy from model._target_)") !=
          std::string::npos);
    CHECK(ok.out.find("  unregistered_wrapper: CP wrapper hyper_parallel.models.toy.adapter.cp.other_wrapper is not "
                      "registered by family 'toy'") != std::string::npos);

    // --strict: the unread key is an error before anything is resolved.
    const auto strict_read = run_cli(toy_cli({"check", path, "--strict"}));
    CHECK(strict_read.exit_code == 2);
    CHECK(strict_read.err.find(path + ":" + line + ":5: plan_overrides entry key 'placement' is not read") !=
          std::string::npos);

    // Without the unread key, --strict turns both diagnostics into gaps.
    const std::string clean = write_plan("clean.yaml", toy_training_config(""));
    const auto strict = run_cli(toy_cli({"check", clean, "--strict", "--json"}));
    CHECK(strict.exit_code == 1);
    const auto report = boost::json::parse(strict.out);
    CHECK(report.at("gaps").as_int64() == 2);
    CHECK(report.at("model_type_source").as_string() == "model._target_");
    CHECK(report.at("entries").as_array()[2].at("gap").as_string() == "not_registered");

    // The summary's digest is the same as for the API on the parsed config.
    const auto digest = run_cli(toy_cli({"summary", clean, "--digest"}));
    CHECK(digest.exit_code == 0);
    auto parsed = famspec::parse_plan_file(clean);
    REQUIRE(parsed.has_value());
    const famspec::Resolver resolver(toy_registry());
    CHECK(digest.out == resolver.declaration_summary(std::nullopt, *parsed).digest() + "\n");

    // resolve --plan takes the family from the config, and --explain says so.
    const auto resolved =
        run_cli(toy_cli({"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--plan", clean, "--explain"}));
    CHECK(resolved.exit_code == 0);
    CHECK(resolved.err.find("explain: family source: model._target_\n") != std::string::npos);
    CHECK(resolved.err.find("explain: family: toy\n") != std::string::npos);
}

TEST_CASE("resolve: diagnostics on stderr by default, not covered under --strict") {
    const auto lenient = run_cli(toy_cli({"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--model-type",
                                          "other_toy", "--option", "use_grouped_gem=true"}));
    CHECK(lenient.exit_code == 0);
    CHECK(lenient.out.find(R"("target_class":"ToyMoE")") != std::string::npos);
    CHECK(lenient.err.find("famspec: diagnostic: ignored_option: option 'use_grouped_gem' is ignored") !=
          std::string::npos);
    CHECK(lenient.err.find("famspec: diagnostic: family_mismatch: the MoE archetype") != std::string::npos);
    const auto strict = run_cli(toy_cli(
        {"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--model-type", "other_toy", "--strict"}));
    CHECK(strict.exit_code == 1);
    CHECK(strict.out == "null\n");
    CHECK(strict.err.find("famspec: not covered: the MoE archetype " + std::string(kToyEp) +
                          " is registered by family 'toy', not by 'other_toy'") != std::string::npos);
    const auto bad =
        run_cli(toy_cli({"resolve", "--target", kToyEp, "--slot", "local_compute_fn", "--option", "x=[1]"}));
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("famspec: bad --option 'x=[1]': option 'x': expected a scalar") != std::string::npos);
}

TEST_CASE("a diagnostic has one JSON encoding: summary and check --json write it alike, null for no suggestion") {
    const std::string plan = write_plan("plan.yaml", kGappyPlan);
    const auto summary = run_cli(toy_cli({"summary", plan}));
    const auto check = run_cli(toy_cli({"check", plan, "--json"}));
    REQUIRE(summary.exit_code == 0);
    // The diagnostics of the first entry that has any.
    const auto first_diagnostics = [](const std::string& out) {
        const boost::json::value parsed = boost::json::parse(out);
        for (const auto& entry : parsed.at("entries").as_array()) {
            const auto* diagnostics = entry.as_object().if_contains("diagnostics");
            if (diagnostics != nullptr && !diagnostics->as_array().empty()) return *diagnostics;
        }
        return boost::json::value(nullptr);
    };
    const boost::json::value in_summary = first_diagnostics(summary.out);
    REQUIRE(in_summary.is_array());
    CHECK(in_summary == first_diagnostics(check.out));
    const auto& diagnostic = in_summary.as_array().front().as_object();
    CHECK(diagnostic.at("kind") == "ignored_option");
    CHECK(diagnostic.at("suggestion").is_null());
}

TEST_CASE("check refuses a misspelt slot key and shows every plan hint without --strict") {
    const std::string misspelt =
        write_plan("misspelt.yaml",
                   "model_type: toy\nplan_overrides:\n  - match: '*.norm'\n"
                   "    module_type: toy.modeling.ToyRMSNorm\n    replace_modul:\n      _target_: " +
                       std::string(kToyNorm) + "\n");
    const std::string hint = misspelt +
                             ":5:5: error: plan_overrides entry key 'replace_modul' is not read by famspec (did you "
                             "mean `replace_module`?): the target under it would be left out\n";
    for (const char* command : {"check", "summary"}) {
        CAPTURE(command);
        const auto refused = run_cli(toy_cli({command, misspelt}));
        CHECK(refused.exit_code == 1);
        CHECK(refused.out.empty());
        CHECK(refused.err == "famspec: " + hint + "famspec: " + misspelt +
                                 ": 1 misspelt slot key(s): the plan is refused rather than answered without their "
                                 "targets\n");
    }
    const auto quiet = run_cli(toy_cli({"check", misspelt, "--quiet", "--json"}));
    CHECK(quiet.exit_code == 1);
    const auto error = boost::json::parse(quiet.out).at("error");
    CHECK(error.at("kind") == "plan");
    CHECK(error.at("line") == 5);
    CHECK(error.at("column") == 5);
    CHECK(quiet.err.find("did you mean `replace_module`?") != std::string::npos);  // an error, not a note

    // Entries with the runtime's placement keys only are valid and say nothing.
    const std::string placement =
        write_plan("placement.yaml", kCoveredPlan +
                                         "  - match: '*.mlp'\n    params: {w1: [0, 1]}\n    in_src: [R]\n"
                                         "    out_dst: [S0]\n    tp_divide_attrs: [num_heads]\n");
    const auto placed = run_cli(toy_cli({"check", placement}));
    CHECK(placed.exit_code == 0);
    CHECK(placed.err.empty());

    // A misspelt plan_overrides: the did-you-mean without --strict.
    const std::string near = write_plan("near.yaml", "model_type: toy\nplan_override:\n  - match: a\n");
    const auto missing = run_cli(toy_cli({"check", near}));
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "famspec: " + near +
                             ":1:1: expected a top-level plan_overrides list; 'plan_override' at 2:1 is not it (did "
                             "you mean `plan_overrides`?)\n");

    // model.model_type: read by nobody, and said so without --strict.
    const std::string model =
        write_plan("model.yaml", "model:\n  _target_: a.b.build\n  model_type: toy\n" + kCoveredPlan);
    const auto noted = run_cli(toy_cli({"check", model}));
    CHECK(noted.exit_code == 0);
    CHECK(noted.err == "famspec: " + model +
                           ":3:3: warning: model.model_type is not read by famspec: the family comes from the "
                           "top-level model_type or architecture, else from model._target_ (or --model-type)\n");
}
