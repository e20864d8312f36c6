// Whole training configs written as upstream's recipes are, through the famspec CLI of this build
// and its shipped plugins: the family comes from model._target_ only when that names a registered
// family, an explicit family that no plugin registers is an error, and the shipped families declare
// what upstream declares today (provider layouts, CP wrappers and their options).
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "selective_equality.hpp"
#include "temp_dir.hpp"

namespace {

namespace json = boost::json;
using famspec::test::run_cli;
using famspec::test::TempDir;

const std::string kModels = "hyper_parallel.models.";
const std::string kQwenModeling = "transformers.models.qwen3_moe.modeling_qwen3_moe.";
const std::string kMlaCp = "hyper_parallel.models.deepseek_v3.adapter.distributed.context_parallel.mla_cp_wrapper";
const std::string kV41 = "hyper_parallel.models.deepseek_v41.adapter.";
const std::string kV41Wrapper = "deepseek_v41_shared_attention_parallel_wrapper";

// The sections around plan_overrides in a real config; `model` is given by each test.
const std::string kRuntimeSections = R"(
training: &training
  global_batch_size: 512
  micro_batch_size: 1
  max_steps: 100
model_init_dtype: bfloat16
accelerator: {kind: npu, devices_per_node: 8}
fsdp_config: {sharding_strategy: FULL_SHARD}
loss_fn: {_target_: hyper_parallel.losses.cross_entropy}
checkpoint: {save_interval: 1000}
)";

// The stock Qwen3-MoE recipe's plan: every family factory, both CP wrappers and the EP archetype.
std::string qwen_recipe(const std::string& model_target) {
    const std::string adapter = kModels + "qwen3_moe.adapter.";
    return "model:\n  _target_: " + model_target + "\n  model_name_or_path: /ckpt/qwen3-moe\n" + kRuntimeSections +
           "plan_overrides:\n"
           "  - match: ['*.input_layernorm', '*.post_attention_layernorm']\n"
           "    module_type: " +
           kQwenModeling +
           "Qwen3MoeRMSNorm\n"
           "    replace_module:\n      _target_: " +
           adapter +
           "replacements.replace_qwen3_moe_rms_norm\n"
           "  - match: '*.self_attn'\n"
           "    module_type: " +
           kQwenModeling +
           "Qwen3MoeAttention\n"
           "    replace_module:\n      _target_: >-\n        " +
           adapter +
           "replacements.replace_qwen3_moe_flash_attention\n"
           "  - match: '*.mlp.experts'\n"
           "    module_type: " +
           kQwenModeling +
           "Qwen3MoeExperts\n"
           "    replace_module:\n      _target_: " +
           adapter +
           "conversion.module_replacement.replace_qwen3_moe_grouped_experts\n"
           "  - match: '*.self_attn'\n    when: cp\n    inner_target: self\n"
           "    inner_wrapper:\n      _target_: " +
           adapter +
           "distributed.context_parallel.qwen3_moe_flash_attention_cp_wrapper\n"
           "  - match: '*.mlp'\n    when: ep\n    region_dispatch: false\n"
           "    local_compute_fn:\n      _target_: " +
           adapter +
           "distributed.expert_parallel.qwen3moe_ep_compute_fn\n"
           "      use_grouped_gemm: true\n";
}

// The stock DeepSeek-V3.2 recipe's plan under the newer provider layout, with its CP wrapper.
std::string deepseek_v32_recipe(const std::string& model_target) {
    const std::string adapter = kModels + "deepseek_v32.adapter.";
    const std::string modeling = kModels + "deepseek_v32.modeling_deepseek_v32.";
    return "model:\n  _target_: " + model_target + "\n  config_path: /ckpt/dsv32/config.json\n" + kRuntimeSections +
           "plan_overrides:\n"
           "  - match: '*.input_layernorm'\n    module_type: " +
           modeling +
           "DeepseekV32RMSNorm\n"
           "    replace_module:\n      _target_: " +
           adapter +
           "conversion.module_replacement.replace_deepseek_v32_rms_norm\n"
           "  - match: '*.self_attn'\n    module_type: " +
           modeling +
           "DeepseekV32Attention\n"
           "    replace_module:\n      _target_: " +
           adapter +
           "conversion.module_replacement.replace_deepseek_v32_dsa_attention\n"
           "  - match: '*.mlp.experts'\n    module_type: " +
           modeling +
           "DeepseekV32Experts\n"
           "    replace_module:\n      _target_: " +
           adapter +
           "conversion.module_replacement.replace_deepseek_v32_grouped_experts\n"
           "  - match: '*.self_attn'\n    when: cp\n    inner_target: self\n"
           "    inner_wrapper:\n      _target_: " +
           adapter + "distributed.context_parallel.deepseek_v32_dsa_attention_cp_wrapper\n";
}

// A DeepSeek-V4.1 config: the shared attention, and its CP wrapper under both module layouts.
std::string deepseek_v41_config(const std::string& attention_options) {
    const std::string modeling = kModels + "deepseek_v41.modeling_deepseek_v41.";
    return "model:\n  _target_: " + kV41 + "validation.cropped_model.build_cropped_deepseek_v41\n" +
           "  freeze_patterns: ['*.embed_tokens']\n" + kRuntimeSections +
           "plan_overrides:\n"
           "  - match: '*.self_attn'\n    module_type: " +
           modeling +
           "DeepseekV41SharedAttention\n"
           "    replace_module:\n      _target_: "
           "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention\n" +
           attention_options +
           "  - match: '*.self_attn'\n    when: cp\n    inner_target: self\n"
           "    inner_wrapper:\n      _target_: " +
           kV41 + "distributed.shared_attention_context_parallel." + kV41Wrapper + "\n" +
           "  - match: '*.mtp.*.self_attn'\n    when: cp\n    inner_target: self\n"
           "    inner_wrapper:\n      _target_: " +
           kV41 + "context_parallel." + kV41Wrapper + "\n";
}

// A DeepSeek-V3 config: the MLA CP wrapper with its options, and the runtime-only factories
// under the newer provider layout.
std::string deepseek_v3_config(const std::string& backend) {
    const std::string modeling = "transformers.models.deepseek_v3.modeling_deepseek_v3.";
    const std::string provider = kModels + "deepseek_v3.adapter.conversion.module_replacement.";
    return "model:\n  _target_: hyper_parallel.models.HyperAutoModelForCausalLM.from_pretrained\n" + kRuntimeSections +
           "plan_overrides:\n"
           "  - match: '*.self_attn'\n    when: cp\n    inner_target: self\n"
           "    inner_wrapper:\n      _target_: " +
           kMlaCp +
           "\n      strategy: expanded_ulysses\n"
           "      backend: " +
           backend + "\n" +
           "  - match: '*.q_b_proj'\n    module_type: torch.nn.Linear\n"
           "    replace_module:\n      _target_: " +
           provider +
           "replace_linear\n"
           "  - match: '*.mlp.experts'\n    module_type: " +
           modeling +
           "DeepseekV3NaiveMoe\n"
           "    replace_module:\n      _target_: " +
           provider + "replace_grouped_experts\n";
}

struct Config {
    TempDir dir;
    std::string path;
    explicit Config(const std::string& text) : path((dir / "config.yaml").string()) { std::ofstream(path) << text; }
};

json::object check_json(const std::string& path, std::vector<std::string> more = {}) {
    std::vector<std::string> args{"check", path, "--json"};
    args.insert(args.end(), more.begin(), more.end());
    const auto result = run_cli(args);
    INFO(result.err);
    return json::parse(result.out).as_object();
}

const json::object& entry_for(const json::object& report, const std::string& target) {
    for (const auto& entry : report.at("entries").as_array()) {
        if (entry.at("target").as_string() == target) return entry.as_object();
    }
    FAIL("no entry for " << target);
    static const json::object none;
    return none;
}

}  // namespace

TEST_CASE("configs: a generic builder in model._target_ names no family, so each target gives its own") {
    for (const std::string& builder : {kModels + "HyperAutoModelForCausalLM.from_pretrained",
                                       kModels + "_transformers.HyperAutoModelForCausalLM.from_pretrained"}) {
        CAPTURE(builder);
        const Config qwen(qwen_recipe(builder));
        const auto text = run_cli({"check", qwen.path});
        INFO(text.err);
        CHECK(text.exit_code == 0);
        CHECK(text.out == qwen.path +
                              ": 5 targets, 5 covered, 0 not covered (model_type inferred from each target; "
                              "model._target_ names no family)\n");
        const auto strict = run_cli({"check", qwen.path, "--strict"});
        CHECK(strict.exit_code == 0);
        const json::object report = check_json(qwen.path, {"--strict"});
        CHECK(report.at("model_type").is_null());
        CHECK(report.at("model_type_source") == "per-target");
        CHECK(report.at("model_type_note") == "model._target_ names no family");
        CHECK(report.at("covered").as_int64() == 5);
        CHECK(report.at("gaps").as_int64() == 0);

        const Config v32(deepseek_v32_recipe(builder));
        const json::object dsa = check_json(v32.path, {"--strict"});
        CHECK(dsa.at("covered").as_int64() == 4);
        CHECK(dsa.at("gaps").as_int64() == 0);
        CHECK(dsa.at("model_type_note") == "model._target_ names no family");
    }
}

TEST_CASE("configs: the digest of a generic-builder config equals the per-target one, not an unknown family's") {
    const Config generic(qwen_recipe(kModels + "HyperAutoModelForCausalLM.from_pretrained"));
    const Config named(qwen_recipe(kModels + "qwen3_moe.adapter.validation.build_qwen3_moe"));
    const auto a = run_cli({"summary", generic.path, "--digest"});
    const auto b = run_cli({"summary", named.path, "--digest"});
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK(check_json(named.path).at("model_type_source") == "model._target_");
    CHECK(check_json(named.path).at("model_type_note").is_null());
    const auto explained = run_cli({"resolve", "--plan", generic.path, "--explain", "--target",
                                    kModels + "qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm",
                                    "--module-type", kQwenModeling + "Qwen3MoeRMSNorm"});
    CHECK(explained.exit_code == 0);
    CHECK(explained.err.find("explain: family source: target path (model._target_ names no family)\n") !=
          std::string::npos);
}

TEST_CASE("configs: a directory alias in model._target_ names its family") {
    const Config config(qwen_recipe(kModels + "qwen35text.adapter.validation.build"));
    const json::object report = check_json(config.path);
    CHECK(report.at("model_type") == "qwen35text");  // the directory alias of qwen3_5, as written
    CHECK(report.at("model_type_source") == "model._target_");
}

TEST_CASE("configs: an explicit family no plugin registers is an error, with every close name") {
    const Config config(qwen_recipe(kModels + "HyperAutoModelForCausalLM.from_pretrained"));
    // Qwen3-VL-MoE is not registered upstream (qwen3 is, since 0e81ad83).
    const std::string message_start =
        "famspec: unknown family 'qwen3_vl_moe' (tried qwen3_vl_moe, qwen3vlmoe) (did you mean `qwen3_5_moe`, ";
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"check", config.path}, std::vector<std::string>{"summary", config.path},
          std::vector<std::string>{"summary", config.path, "--digest"}}) {
        CAPTURE(command[0]);
        std::vector<std::string> args = command;
        args.insert(args.end(), {"--model-type", "qwen3_vl_moe"});
        const auto result = run_cli(args);
        CHECK(result.exit_code == 1);
        CHECK(result.out.empty());
        CHECK(result.err.starts_with(message_start));
        CHECK(result.err.find("`qwen3_moe`") != std::string::npos);
        CHECK(result.err.find(" given by --model-type; ") != std::string::npos);
        // --allow-partial keeps the answer: every target under the unknown family.
        args.push_back("--allow-partial");
        const auto partial = run_cli(args);
        CHECK(!partial.out.empty());
        CHECK(partial.exit_code == (command[0] == "check" ? 1 : 0));
    }
    const auto resolve = run_cli({"resolve", "--model-type", "qwen3_mo", "--target",
                                  kModels + "qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm",
                                  "--module-type", kQwenModeling + "Qwen3MoeRMSNorm"});
    CHECK(resolve.exit_code == 1);
    CHECK(resolve.out.empty());
    CHECK(resolve.err.starts_with(
        "famspec: unknown family 'qwen3_mo' (tried qwen3_mo, qwen3mo) (did you mean `qwen3_moe`, "));

    // The plan's own model_type or architecture is explicit too.
    const Config typo("model_type: Qwen3MoeForCausalM\n" + qwen_recipe("x.y").substr(0));
    const auto plan = run_cli({"summary", typo.path, "--digest"});
    CHECK(plan.exit_code == 1);
    CHECK(plan.out.empty());
    CHECK(plan.err.find("unknown family 'Qwen3MoeForCausalM'") != std::string::npos);
    CHECK(plan.err.find("(did you mean `qwen3_moe`") != std::string::npos);
    CHECK(plan.err.find("given by model_type") != std::string::npos);
    const auto json_error = run_cli({"check", typo.path, "--json"});
    CHECK(json_error.exit_code == 1);
    CHECK(json::parse(json_error.out).at("error").at("kind") == "unknown_family");
}

TEST_CASE("configs: a component named directly is answered under any family, registered or not") {
    const std::string norm = "hyper_parallel.components.modules.RMSNorm";
    const std::string module_type = "transformers.models.qwen3.modeling_qwen3.Qwen3RMSNorm";
    const auto plain = run_cli({"resolve", "--target", norm, "--module-type", module_type});
    REQUIRE(plain.exit_code == 0);
    CHECK(plain.out.find(R"("new_ctor":"RMSNorm","old_ctor":"Qwen3RMSNorm")") != std::string::npos);
    for (const std::string family : {"MistralForCausalLM", "LlamaForCausalLM", "Qwen3ForCausalLM", "qwen3_moe"}) {
        CAPTURE(family);
        const auto resolved =
            run_cli({"resolve", "--model-type", family, "--target", norm, "--module-type", module_type});
        CHECK(resolved.exit_code == 0);
        CHECK(resolved.out == plain.out);
        CHECK(resolved.err.empty());
    }
    const std::string entry = "  - match: '*.norm'\n    module_type: " + module_type +
                              "\n    replace_module:\n      _target_: " + norm + "\n";
    const Config direct("model_type: MistralForCausalLM\nplan_overrides:\n" + entry);
    const auto checked = run_cli({"check", direct.path});
    CHECK(checked.exit_code == 0);
    CHECK(checked.out == direct.path +
                             ": 1 targets, 1 covered, 0 not covered (model_type MistralForCausalLM from "
                             "model_type)\n");
    const auto digest = run_cli({"summary", direct.path, "--digest"});
    REQUIRE(digest.exit_code == 0);
    for (const std::string family : {"LlamaForCausalLM", "qwen3_moe"}) {
        CAPTURE(family);
        const auto other = run_cli({"summary", direct.path, "--digest", "--model-type", family});
        CHECK(other.exit_code == 0);
        CHECK(other.out == digest.out);
    }
    // A plan with a target that does read the family still refuses a family no plugin registers.
    const Config mixed("model_type: MistralForCausalLM\nplan_overrides:\n" + entry +
                       "  - match: '*.mlp'\n    when: ep\n    local_compute_fn:\n      _target_: " + kModels +
                       "qwen3_moe.adapter.distributed.expert_parallel.qwen3moe_ep_compute_fn\n");
    const auto refused = run_cli({"check", mixed.path});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.starts_with("famspec: unknown family 'MistralForCausalLM'"));
    const auto factory =
        run_cli({"resolve", "--model-type", "MistralForCausalLM", "--target",
                 kModels + "qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm", "--module-type", module_type});
    CHECK(factory.exit_code == 1);
    CHECK(factory.err.starts_with("famspec: unknown family 'MistralForCausalLM'"));
}

TEST_CASE("configs: deepseek_v41's shared-attention CP wrapper is covered under both layouts, use_fused_ops is gone") {
    const Config plain(deepseek_v41_config(""));
    const json::object report = check_json(plain.path, {"--strict"});
    CHECK(report.at("model_type") == "deepseek_v41");
    CHECK(report.at("model_type_source") == "model._target_");
    CHECK(report.at("covered").as_int64() == 3);
    CHECK(report.at("gaps").as_int64() == 0);
    for (const std::string layout : {"distributed.shared_attention_context_parallel.", "context_parallel."}) {
        const json::object& entry = entry_for(report, kV41 + layout + kV41Wrapper);
        CHECK(entry.at("status") == "resolved");
        CHECK(entry.at("diagnostics").as_array().empty());
    }

    const Config fused(deepseek_v41_config("      use_fused_ops: false\n"));
    const json::object lenient = check_json(fused.path);
    const std::string attention =
        "hyper_parallel.components.modules.shared_compressed_dsa_attention.SharedCompressedDSAAttention";
    const json::object& entry = entry_for(lenient, attention);
    CHECK(entry.at("status") == "resolved");
    REQUIRE(entry.at("diagnostics").as_array().size() == 1);
    CHECK(entry.at("diagnostics").as_array()[0].at("kind") == "ignored_option");
    const auto summary = run_cli({"summary", fused.path});
    REQUIRE(summary.exit_code == 0);
    CHECK(summary.out.find("use_fused_ops=") == std::string::npos);
    const json::object strict = check_json(fused.path, {"--strict"});
    CHECK(entry_for(strict, attention).at("gap") == "bad_option");
    CHECK(strict.at("gaps").as_int64() == 1);
}

TEST_CASE("configs: deepseek_v3's MLA CP wrapper checks its options, its runtime-only factories are native") {
    const Config good(deepseek_v3_config("sdpa"));
    const auto lenient = run_cli({"check", good.path});
    INFO(lenient.err);
    CHECK(lenient.exit_code == 0);
    const json::object report = check_json(good.path);
    CHECK(report.at("covered").as_int64() == 1);
    CHECK(report.at("native").as_int64() == 2);
    CHECK(entry_for(report, kMlaCp).at("diagnostics").as_array().empty());
    CHECK(run_cli({"check", good.path, "--strict", "--allow-runtime-only"}).exit_code == 0);

    const Config bad(deepseek_v3_config("tpu"));
    const json::object flagged = check_json(bad.path);
    const json::object& entry = entry_for(flagged, kMlaCp);
    CHECK(entry.at("status") == "resolved");
    REQUIRE(entry.at("diagnostics").as_array().size() == 1);
    const json::object& diagnostic = entry.at("diagnostics").as_array()[0].as_object();
    CHECK(diagnostic.at("kind") == "disallowed_value");
    CHECK(diagnostic.at("message").as_string() ==
          "option 'backend' is 'tpu', not one of the values CP wrapper " + kMlaCp + " allows: 'npu', 'sdpa'");
    const json::object strict = check_json(bad.path, {"--strict", "--allow-runtime-only"});
    CHECK(entry_for(strict, kMlaCp).at("status") == "not_covered");
    CHECK(entry_for(strict, kMlaCp).at("gap") == "bad_option");
    CHECK(strict.at("gaps").as_int64() == 1);

    const auto resolve =
        run_cli({"resolve", "--slot", "inner_wrapper", "--target", kMlaCp, "--option", "backend=tpu", "--strict"});
    CHECK(resolve.exit_code == 1);
    CHECK(resolve.err.find("not one of the values") != std::string::npos);
}

TEST_CASE("configs: show lists a CP wrapper's options with their allowed values") {
    const auto text = run_cli({"show", "deepseek_v3"});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("  cp wrappers:\n    " + kMlaCp +
                        "\n      options strategy='expanded_ulysses' (Literal['expanded_ulysses', 'latent_kv_head']), "
                        "backend='npu' "
                        "(Literal['npu', 'sdpa'])\n") != std::string::npos);
    CHECK(text.out.find("    hyper_parallel.models.deepseek_v3.adapter.conversion.module_replacement\n"
                        "    hyper_parallel.models.deepseek_v3.adapter.replacements\n") != std::string::npos);
    const auto shown = run_cli({"show", "deepseek_v3", "--json"});
    const json::value report = json::parse(shown.out);
    CHECK(report.at("cp_wrapper_options").at(kMlaCp).as_array().size() == 2);
    CHECK(report.at("cp_wrappers").as_array()[0].as_string() == kMlaCp);
}

TEST_CASE("configs: every whole config answers from the plugins it touches as from every plugin") {
    // Each config, and whether the plugins it touches answer it: a target not covered (qwen3_moe's
    // factories asked of qwen3_5, named by its directory alias) is explained by a load of every plugin.
    const std::vector<std::pair<std::string, bool>> configs = {
        {qwen_recipe(kModels + "HyperAutoModelForCausalLM.from_pretrained"), true},
        {qwen_recipe(kModels + "_transformers.HyperAutoModelForCausalLM.from_pretrained"), true},
        {qwen_recipe(kModels + "qwen3_moe.adapter.validation.build_qwen3_moe"), true},
        {qwen_recipe(kModels + "qwen35text.adapter.validation.build"), false},
        {deepseek_v32_recipe(kModels + "HyperAutoModelForCausalLM.from_pretrained"), true},
        {deepseek_v41_config(""), true},
        {deepseek_v41_config("      use_fused_ops: false\n"), true},
        {deepseek_v3_config("sdpa"), true},
        {deepseek_v3_config("tpu"), true},  // a disallowed value is a diagnostic
    };
    for (std::size_t i = 0; i < configs.size(); ++i) {
        CAPTURE(i);
        const Config config(configs[i].first);
        CHECK(famspec::test::check_selective_equals_full(config.path) == configs[i].second);
    }
}
