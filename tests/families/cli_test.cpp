// The same contracts through the famspec CLI of this build and its default plugin directory:
// resolve --json, check on the example plans, summary --digest. Every rendered snippet must parse.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "process.hpp"
#include "python_check.hpp"

namespace {

namespace json = boost::json;
using famspec::test::run_cli;
using famspec::test::run_process;

const std::string kQwen = "hyper_parallel.models.qwen3_moe.adapter.";
const std::string kQwenModeling = "transformers.models.qwen3_moe.modeling_qwen3_moe.";
const std::string kSharedAttention =
    "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention";

std::vector<std::string> resolve_args(const std::string& target, std::vector<std::string> more = {}) {
    std::vector<std::string> args{"resolve", "--target", target};
    args.insert(args.end(), more.begin(), more.end());
    args.push_back("--json");
    return args;
}

json::value resolved(const std::vector<std::string>& args) {
    const auto result = run_cli(args);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return json::parse(result.out);
}

std::vector<std::string> strings(const json::value& array) {
    std::vector<std::string> out;
    for (const auto& item : array.as_array()) out.emplace_back(item.as_string());
    return out;
}

std::string plan_path(const std::string& name) { return famspec::test::source_dir() + "/examples/plans/" + name; }

// python3 -c 'import ast,sys; ast.parse(sys.stdin.read())' on the text.
bool python_parses(const std::string& text) {
    famspec::test::ProcessOptions options;
    options.input = text;
    const auto result = run_process({"python3", "-c", "import ast,sys; ast.parse(sys.stdin.read())"}, options);
    INFO(result.err);
    return result.exit_code == 0;
}

// Every replacement spec in a JSON document that carries snippets, as (raw imports, snippets).
void collect_rendered(const json::value& value, std::vector<std::pair<std::vector<std::string>, std::string>>& out) {
    if (const auto* object = value.if_object()) {
        if (const auto* snippets = object->if_contains("snippets"); snippets && !snippets->as_array().empty()) {
            std::vector<std::string> raw;
            for (const auto& patch : object->at("imports").as_array()) {
                if (patch.at("raw").is_string()) raw.emplace_back(patch.at("raw").as_string());
            }
            for (const auto& snippet : snippets->as_array()) {
                out.emplace_back(raw, std::string(snippet.at("text").as_string()));
            }
        }
        for (const auto& [key, child] : *object) collect_rendered(child, out);
    } else if (const auto* array = value.if_array()) {
        for (const auto& child : *array) collect_rendered(child, out);
    }
}

}  // namespace

TEST_CASE("cli: resolve gives the exact qwen3 RMSNorm spec, whatever the family spelling") {
    const std::string expected =
        R"({"imports":[{"module":"hyper_parallel.components.modules","names":["RMSNorm"],"raw":null}],)"
        R"("keyword_args":["module_fqn=''","context=None"],"mode":"wrap_source","new_ctor":"RMSNorm",)"
        R"("old_ctor":"Qwen3MoeRMSNorm","remove_class":false,)"
        R"("replacement_note":"RMSNorm wraps Qwen3MoeRMSNorm; the original class is kept as the wrapper input.",)"
        R"("snippets":[]})"
        "\n";
    const std::string target = kQwen + "replacements.replace_qwen3_moe_rms_norm";
    const std::vector<std::string> module_type = {"--module-type", kQwenModeling + "Qwen3MoeRMSNorm"};
    for (const std::vector<std::string>& family :
         std::vector<std::vector<std::string>>{{},
                                               {"--model-type", "qwen3_moe"},
                                               {"--model-type", "Qwen3MoeForCausalLM"},
                                               {"--model-type", "qwen3moe"}}) {
        std::vector<std::string> more = family;
        more.insert(more.end(), module_type.begin(), module_type.end());
        const auto result = run_cli(resolve_args(target, more));
        CAPTURE(result.err);
        CHECK(result.exit_code == 0);
        CHECK(result.out == expected);
    }
}

TEST_CASE("cli: grouped experts and the rendered attention") {
    const auto experts = resolved(resolve_args(kQwen + "replacements.replace_qwen3_moe_grouped_experts",
                                               {"--module-type", kQwenModeling + "Qwen3MoeExperts"}));
    CHECK(experts.at("new_ctor") == "GroupedExperts");
    CHECK(experts.at("mode") == "wrap_source");
    CHECK(strings(experts.at("keyword_args")) == std::vector<std::string>{"module_fqn=''", "context=None"});
    CHECK(experts.at("snippets").as_array().empty());

    const auto attention = resolved(resolve_args(kQwen + "replacements.replace_qwen3_moe_flash_attention",
                                                 {"--module-type", kQwenModeling + "Qwen3MoeAttention"}));
    CHECK(attention.at("new_ctor") == "GQAAttention");
    CHECK(attention.at("remove_class") == false);
    CHECK(
        strings(attention.at("keyword_args")) ==
        std::vector<std::string>{"module_fqn=''", "context=None", "attention_interface=run_qwen3_moe_flash_attention"});
    std::vector<std::string> raw;
    for (const auto& patch : attention.at("imports").as_array()) raw.emplace_back(patch.at("raw").as_string());
    CHECK(raw == std::vector<std::string>{
                     "from hyper_parallel.components.functional.attention import npu_fusion_attention_forward",
                     "from hyper_parallel.core.checkpoint.transforms import InterleaveQKV", "from torch import nn",
                     "import torch", "import torch_npu"});
    REQUIRE(attention.at("snippets").as_array().size() == 1);
    const std::string text(attention.at("snippets").as_array()[0].at("text").as_string());
    CHECK(python_parses(text));
    CHECK(text.find("class GQAAttention(nn.Module):") != std::string::npos);
    const auto check = famspec::test::check_python(famspec::test::artifact(raw, text));
    CHECK(check.parsed);
    CHECK(check.unbound.empty());
}

TEST_CASE("cli: the EP specs of both archetypes") {
    const auto qwen = resolved(
        resolve_args(kQwen + "distributed.expert_parallel.qwen3moe_ep_compute_fn",
                     {"--model-type", "qwen3_moe", "--slot", "local_compute_fn", "--option", "use_grouped_gemm=true"}));
    CHECK(qwen.at("kind") == "moe_ep_routed");
    CHECK(qwen.at("target_class") == "Qwen3MoeSparseMoeBlock");
    CHECK(qwen.at("method_name") == "forward");
    const std::string qwen_body(qwen.at("body_template").as_string());
    CHECK(qwen_body.find("router_kind='topk_router_module'") != std::string::npos);
    CHECK(qwen_body.find("shared='none'") != std::string::npos);
    CHECK(qwen.at("strip_boundary_subpatterns").as_array().empty());

    const auto deepseek =
        resolved(resolve_args("hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn",
                              {"--model-type", "DeepseekV3ForCausalLM", "--slot", "local_compute_fn"}));
    CHECK(deepseek.at("target_class") == "DeepseekV3MoE");
    const std::string deepseek_body(deepseek.at("body_template").as_string());
    CHECK(deepseek_body.find("router_kind='sigmoid_group'") != std::string::npos);
    CHECK(deepseek_body.find("shared='additive'") != std::string::npos);
    CHECK(strings(deepseek.at("strip_boundary_subpatterns")) ==
          std::vector<std::string>{"experts.*", "shared_experts"});
}

TEST_CASE("cli: a CP wrapper resolves in inner_wrapper and not in local_compute_fn") {
    const std::string target = kQwen + "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper";
    const auto wrong = run_cli(resolve_args(target, {"--slot", "local_compute_fn"}));
    CHECK(wrong.exit_code == 1);
    CHECK(wrong.out == "null\n");
    CHECK(wrong.err.find("inner_wrapper") != std::string::npos);

    const auto spec = resolved(resolve_args(target, {"--slot", "inner_wrapper"}));
    CHECK(spec.at("kind") == "cp_attention");
    CHECK(spec.at("imports").as_array().empty());
    CHECK(spec.at("body_template").is_null());
    CHECK(spec.at("target_class").is_null());
}

TEST_CASE("cli: an unregistered family fails closed") {
    // Given explicitly, it is an error; with --allow-partial, the target is not covered.
    std::vector<std::string> args =
        resolve_args(kQwen + "replacements.replace_qwen3_moe_flash_attention",
                     {"--model-type", "unregistered_model", "--module-type", kQwenModeling + "Qwen3MoeAttention"});
    const auto refused = run_cli(args);
    CHECK(refused.exit_code == 1);
    CHECK(json::parse(refused.out).at("error").at("kind") == "unknown_family");
    args.push_back("--allow-partial");
    const auto result = run_cli(args);
    CHECK(result.exit_code == 1);
    CHECK(result.out == "null\n");
    CHECK(result.err.find("unknown family 'unregistered_model'") != std::string::npos);
}

TEST_CASE("cli: direct components and the positional factory") {
    const auto engram = resolved(
        resolve_args("hyper_parallel.components.modules.engram.EngramModule",
                     {"--module-type", "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.DeepseekV41Engram"}));
    CHECK(engram.at("new_ctor") == "EngramModule");
    CHECK(engram.at("old_ctor") == "DeepseekV41Engram");
    CHECK(engram.at("mode") == "wrap_source");
    CHECK(strings(engram.at("keyword_args")) == std::vector<std::string>{"module_fqn=''", "context=None"});
    CHECK(engram.at("imports").as_array()[0].at("module") == "hyper_parallel.components.modules.engram");

    const auto shared = resolved(resolve_args(
        "hyper_parallel.models.deepseek_v41.adapter.replacements.replace_deepseek_v41_shared_attention",
        {"--module-type", "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.DeepseekV41SharedAttention"}));
    CHECK(shared.at("new_ctor") == "SharedCompressedDSAAttention");
    CHECK(shared.at("mode") == "wrap_source");
    CHECK(shared.at("keyword_args").as_array().empty());
    CHECK(shared.at("imports").as_array()[0].at("module") ==
          "hyper_parallel.components.modules.shared_compressed_dsa_attention");

    const auto gqa = resolved(resolve_args("hyper_parallel.components.modules.gqa_attention.GQAAttention",
                                           {"--module-type", kQwenModeling + "Qwen3MoeAttention"}));
    CHECK(gqa.at("new_ctor") == "GQAAttention");
    CHECK(strings(gqa.at("keyword_args")) == std::vector<std::string>{"module_fqn=''", "context=None"});
    CHECK(gqa.at("imports").as_array()[0].at("module") == "hyper_parallel.components.modules.gqa_attention");
}

TEST_CASE("cli: use_fused_ops is gone from SharedCompressedDSAAttention: ignored, not rendered") {
    const std::vector<std::string> module_type = {
        "--module-type", "hyper_parallel.models.deepseek_v41.modeling_deepseek_v41.DeepseekV41SharedAttention"};
    const auto plain = resolved(resolve_args(kSharedAttention, module_type));
    CHECK(strings(plain.at("keyword_args")) == std::vector<std::string>{"module_fqn=''", "context=None"});
    std::vector<std::string> with_option = module_type;
    with_option.insert(with_option.end(), {"--option", "use_fused_ops=true"});
    const auto result = run_cli(resolve_args(kSharedAttention, with_option));
    CHECK(result.exit_code == 0);
    CHECK(json::parse(result.out) == plain);
    CHECK(result.err.find("famspec: diagnostic: ignored_option: option 'use_fused_ops' is ignored: it is not "
                          "declared") != std::string::npos);
    with_option.push_back("--strict");
    const auto strict = run_cli(resolve_args(kSharedAttention, with_option));
    CHECK(strict.exit_code == 1);
    CHECK(strict.out == "null\n");
}

TEST_CASE("cli: show prints the upstream families and qwen3_moe's two provider modules") {
    const auto qwen = run_cli({"show", "qwen3_moe"});
    INFO(qwen.err);
    REQUIRE(qwen.exit_code == 0);
    CHECK(qwen.out.find("  providers:\n"
                        "    hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement\n"
                        "    hyper_parallel.models.qwen3_moe.adapter.replacements\n") != std::string::npos);
    const auto qwen_json = resolved({"show", "Qwen3MoeForCausalLM", "--json"});
    CHECK(strings(qwen_json.at("providers")) ==
          std::vector<std::string>{"hyper_parallel.models.qwen3_moe.adapter.conversion.module_replacement",
                                   "hyper_parallel.models.qwen3_moe.adapter.replacements"});
    // (spelling, model_type, architecture) for the registrations of their own.
    const std::vector<std::tuple<std::string, std::string, std::string>> families = {
        {"deepseek_v2", "deepseek_v2", "DeepseekV2ForCausalLM"},
        {"deepseekv2", "deepseek_v2", "DeepseekV2ForCausalLM"},
        {"qwen3_5_text", "qwen3_5_text", "Qwen3_5ForCausalLM"},
        {"qwen35text", "qwen3_5_text", "Qwen3_5ForCausalLM"},
        {"qwen4_exp", "qwen4_exp", "Qwen4ExpForConditionalGeneration"},
        {"qwen4_exp_text", "qwen4_exp_text", "Qwen4ExpForCausalLM"},
        {"Qwen4ExpForConditionalGeneration", "qwen4_exp", "Qwen4ExpForConditionalGeneration"},
    };
    for (const auto& [spelling, model_type, architecture] : families) {
        CAPTURE(spelling);
        const auto text = run_cli({"show", spelling});
        CHECK(text.exit_code == 0);
        CHECK(text.out.find("family " + model_type + "\n  architecture:      " + architecture + "\n") == 0);
        CHECK(text.out.find("  providers:\n    (none)\n") != std::string::npos);
        const auto report = resolved({"show", spelling, "--json"});
        CHECK(report.at("model_type") == model_type.c_str());
        CHECK(report.at("architecture") == architecture.c_str());
        CHECK(report.at("providers").as_array().empty());
        CHECK(report.at("factories").as_array().empty());
    }
    // deepseek_v3 keeps its directory alias, which no longer makes deepseekv2 one of its spellings.
    const auto v3 = resolved({"show", "deepseek_v3", "--json"});
    CHECK(strings(v3.at("directory_aliases")) == std::vector<std::string>{"deepseekv2"});
    CHECK(strings(v3.at("spellings")) == std::vector<std::string>{"deepseekv3"});
    CHECK(strings(v3.at("providers")) ==
          std::vector<std::string>{"hyper_parallel.models.deepseek_v3.adapter.conversion.module_replacement",
                                   "hyper_parallel.models.deepseek_v3.adapter.replacements"});
}

TEST_CASE("cli: check passes on every example plan; documented runtime-only entries are native") {
    // (plan, runtime-only targets); each plan documents these entries as RUNTIME-ONLY.
    const std::string v3 = "hyper_parallel.models.deepseek_v3.adapter.replacements.";
    const std::string v41 = "hyper_parallel.models.deepseek_v41.adapter.distributed.expert_parallel.";
    const std::vector<std::pair<std::string, std::set<std::string>>> plans = {
        {"qwen3_moe.yaml", {}},
        {"qwen3_moe_training.yaml", {}},
        {"deepseek_v3.yaml",
         {v3 + "replace_linear", v3 + "replace_grouped_experts", v3 + "replace_mxfp8_grouped_experts",
          v3 + "replace_hifloat8_grouped_experts"}},
        {"deepseek_v32.yaml", {}},
        {"deepseek_v41.yaml", {v41 + "deepseek_v41_ep_compute_fn", v41 + "deepseek_v41_engram_compute_fn"}},
    };
    for (const auto& [name, runtime_only] : plans) {
        CAPTURE(name);
        const auto result = run_cli({"check", plan_path(name), "--json"});
        CAPTURE(result.err);
        CHECK(result.exit_code == 0);
        CHECK(run_cli({"check", plan_path(name), "--strict"}).exit_code == (runtime_only.empty() ? 0 : 1));
        const json::value report = json::parse(result.out);
        std::set<std::string> uncovered;
        std::set<std::string> slots;
        for (const auto& entry : report.at("entries").as_array()) {
            slots.emplace(entry.at("slot").as_string());
            if (entry.at("status") == "resolved") continue;
            CHECK(entry.at("status") == "native");
            const std::string reason(entry.at("reason").as_string());
            CHECK(std::regex_search(reason, std::regex("runtime[ -]only")));
            CHECK(entry.at("diagnostics").as_array()[0].at("kind") == "runtime_only");
            uncovered.emplace(entry.at("target").as_string());
        }
        CHECK(uncovered == runtime_only);
        CHECK(report.at("gaps").as_int64() == 0);
        CHECK(report.at("native").as_int64() == static_cast<std::int64_t>(runtime_only.size()));
        if (!runtime_only.empty()) {
            std::ifstream file(plan_path(name));
            std::stringstream text;
            text << file.rdbuf();
            CHECK(text.str().find("RUNTIME-ONLY") != std::string::npos);
        }
        if (name == "qwen3_moe_training.yaml") {
            // A whole training config: the family from model._target_, every entry covered, no warnings.
            CHECK(report.at("model_type_source") == "model._target_");
            CHECK(report.at("model_type") == "qwen3_moe");
            CHECK(report.at("covered").as_int64() == 5);
            CHECK(report.at("warnings").as_array().empty());
            CHECK(report.at("diagnostics").as_int64() == 0);
        }
        if (name == "qwen3_moe.yaml") {
            CHECK(slots == std::set<std::string>{"replace_module", "local_compute_fn", "inner_wrapper"});
            CHECK(report.at("entries").as_array().size() == 6);
        }
    }
}

TEST_CASE("cli: summary digests are stable, and every rendered snippet in them parses") {
    for (const std::string name : {"qwen3_moe.yaml", "deepseek_v3.yaml", "deepseek_v32.yaml", "deepseek_v41.yaml"}) {
        CAPTURE(name);
        const auto first = run_cli({"summary", plan_path(name), "--digest"});
        const auto second = run_cli({"summary", plan_path(name), "--digest"});
        CAPTURE(first.err);
        REQUIRE(first.exit_code == 0);
        CHECK(std::regex_match(first.out, std::regex("sha256:[0-9a-f]{64}\n")));
        CHECK(first.out == second.out);

        const auto full = run_cli({"summary", plan_path(name)});
        REQUIRE(full.exit_code == 0);
        std::vector<std::pair<std::vector<std::string>, std::string>> rendered;
        // The entries hold every resolved spec once, in plan order.
        collect_rendered(json::parse(full.out).at("entries"), rendered);
        CHECK(rendered.size() == (name == "qwen3_moe.yaml" ? 1U : 0U));
        for (const auto& [imports, text] : rendered) {
            CHECK(python_parses(text));
            const auto check = famspec::test::check_python(famspec::test::artifact(imports, text));
            CHECK(check.parsed);
            CHECK(check.unbound.empty());
        }
    }
    // The family spelling does not change what the plan declares.
    const auto by_type = run_cli({"summary", plan_path("qwen3_moe.yaml"), "--digest"});
    const auto by_architecture =
        run_cli({"summary", plan_path("qwen3_moe.yaml"), "--digest", "--model-type", "Qwen3MoeForCausalLM"});
    CHECK(by_type.out == by_architecture.out);
    // An option that changes the generated call changes the answer.
    const std::string norm = "hyper_parallel.components.modules.rms_norm.RMSNorm";
    const auto plain = run_cli({"resolve", "--target", norm, "--module-type", "x.Norm", "--json"});
    const auto tuned =
        run_cli({"resolve", "--target", norm, "--module-type", "x.Norm", "--option", "eps=1e-6", "--json"});
    CHECK(plain.exit_code == 0);
    CHECK(tuned.exit_code == 0);
    CHECK(plain.out != tuned.out);
}
