// famspec reads a plugin and never runs it: with code_never_runs on the plugin path (a static
// initialiser that would leave a mark file and then fault), every command answers as usual, its
// declaration is answered by show and resolve, and the mark never appears.
#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

namespace {

const std::string kTarget = "hyper_parallel.models.code_never_runs.adapter.replacements.replace_norm";
const std::string kSourceType = "transformers.models.code_never_runs.modeling_code_never_runs.CodeNeverRunsRMSNorm";

// What a resolve of the plugin's one factory answers: the shipped RMSNorm wrapping the source class.
const std::string kSpec =
    R"({"imports":[{"module":"hyper_parallel.components.modules","names":["RMSNorm"],"raw":null}],)"
    R"("keyword_args":["module_fqn=''","context=None"],"mode":"wrap_source","new_ctor":"RMSNorm",)"
    R"("old_ctor":"CodeNeverRunsRMSNorm","remove_class":false,)"
    R"("replacement_note":"RMSNorm wraps CodeNeverRunsRMSNorm; the original class is kept as the wrapper input.",)"
    R"("snippets":[]})";

struct Expectation {
    std::vector<std::string> arguments;
    int exit_code;
    std::string input;  // on stdin
};

}  // namespace

TEST_CASE("with a plugin whose code would fault, every command answers and none of its code runs") {
    const TempDir dir;
    const fs::path mark = dir / "mark";
    const std::string plan = (dir / "plan.yaml").string();
    std::ofstream(plan) << "model_type: code_never_runs\nplan_overrides:\n  - match: \"*.norm\"\n    module_type: "
                        << kSourceType << "\n    replace_module:\n      _target_: " << kTarget << "\n";
    ProcessOptions options;
    options.environment["ZOO_MARK_FILE"] = mark.string();
    options.environment["FAMSPEC_PLUGIN_PATH"] = plugin_dir() + ":" + fixture_dir("code_never_runs");
    const std::string query = R"({"target": ")" + kTarget + R"(", "module_type": ")" + kSourceType + "\"}\n";

    const std::vector<Expectation> commands = {
        {{"list"}, kOk, ""},
        {{"list", "--json"}, kOk, ""},
        {{"info", fixture_file("code_never_runs").string()}, kOk, ""},
        {{"show", "code_never_runs"}, kOk, ""},
        {{"components"}, kOk, ""},
        {{"check", plan}, kOk, ""},
        {{"summary", plan}, kOk, ""},
        {{"summary", "--digest", qwen_plan()}, kOk, ""},
        {{"resolve", "--target", kTarget, "--module-type", kSourceType}, kOk, ""},
        {{"snapshot"}, kOk, ""},
        {{"verify"}, kOk, ""},
        {{"verify", "--json"}, kOk, ""},
        {{"resolve", "--batch"}, kOk, query + query},
        {{"external-state", qwen_plan()}, kOk, ""},
        {{"interface-component", "qwen3_moe"}, kOk, ""},
    };
    for (const Expectation& expected : commands) {
        CAPTURE(expected.arguments.front());
        CAPTURE(expected.arguments.size());
        ProcessOptions run = options;
        run.input = expected.input;
        const ProcessResult result = run_cli(expected.arguments, run);
        INFO(describe(result));
        CHECK(result.signal == 0);
        CHECK(result.exit_code == expected.exit_code);
        CHECK_FALSE(result.out.empty());
        CHECK_FALSE(fs::exists(mark));
    }
    CHECK_FALSE(fs::exists(mark));
}

TEST_CASE("the declarations of a plugin that is never run are answered by show, resolve and check") {
    const TempDir dir;
    const fs::path mark = dir / "mark";
    ProcessOptions options;
    options.environment["ZOO_MARK_FILE"] = mark.string();
    options.environment["FAMSPEC_PLUGIN_PATH"] = plugin_dir() + ":" + fixture_dir("code_never_runs");

    const json::object shown = run_json({"show", "CodeNeverRunsForCausalLM", "--json"}, kOk, options);
    CHECK(text(shown, "model_type") == "code_never_runs");
    CHECK(text(shown, "plugin") == "code_never_runs");
    CHECK(text(shown, "path") == fixture_file("code_never_runs").string());
    CHECK(json::serialize(shown.at("factories")) ==
          R"([{"declares":"RMSNorm(module=module, module_fqn=<module_fqn>, context=<context>) from )"
          R"(hyper_parallel.components.modules [wrap_source]","runtime_only":false,"target":")" +
              kTarget + R"("}])");
    CHECK(shown.at("components") == json::array{"hyper_parallel.components.modules.rms_norm.RMSNorm"});

    const ProcessResult resolved = run_cli({"resolve", "--target", kTarget, "--module-type", kSourceType}, options);
    INFO(describe(resolved));
    CHECK(resolved.exit_code == kOk);
    CHECK(resolved.out == kSpec + "\n");

    ProcessOptions batch = options;
    batch.input = R"({"target": ")" + kTarget + R"(", "module_type": ")" + kSourceType + "\"}\n" + R"({"target": ")" +
                  kTarget + "\"}\n";
    const ProcessResult answered = run_cli({"resolve", "--batch"}, batch);
    INFO(describe(answered));
    CHECK(answered.exit_code == kFailed);  // the second query names no source class
    CHECK(answered.out.starts_with(R"({"diagnostics":[],"gap":null,"reason":"","spec":)" + kSpec +
                                   R"(,"status":"resolved"})"
                                   "\n"));
    CHECK(answered.out.find(R"("status":"not_covered")") != std::string::npos);

    // Without the source class the factory has no call site: not covered, exit 1, still no crash.
    const ProcessResult gap = run_cli({"resolve", "--target", kTarget}, options);
    CHECK(gap.signal == 0);
    CHECK(gap.exit_code == kFailed);
    CHECK(gap.out == "null\n");

    const std::string plan = (dir / "plan.yaml").string();
    std::ofstream(plan) << "model_type: code_never_runs\nplan_overrides:\n  - match: \"*.norm\"\n    module_type: "
                        << kSourceType << "\n    replace_module:\n      _target_: " << kTarget << "\n";
    const ProcessResult checked = run_cli({"check", plan}, options);
    CHECK(checked.exit_code == kOk);
    CHECK(checked.out == plan + ": 1 targets, 1 covered, 0 not covered (model_type code_never_runs from model_type)\n");

    const json::object listed = run_json({"list", "--json"}, kOk, options);
    const json::object& entry = entry_for(listed, "famspec_code_never_runs.so");
    CHECK(text(entry, "status") == "ok");
    CHECK(entry.at("families") == json::array{"code_never_runs"});
    const json::object snapshot = run_json({"snapshot", "--json"}, kOk, options);
    bool found = false;
    for (const auto& plugin : snapshot.at("plugins").as_array()) {
        if (plugin.at("name") != "code_never_runs") continue;
        found = true;
        CHECK(plugin.at("keys").at("factories") == json::array{json::value(kTarget)});
    }
    CHECK(found);
    CHECK_FALSE(fs::exists(mark));
}

// An uninstrumented interpreter cannot open a sanitized library (its runtime must come first), so the
// counter-proof runs in the builds without sanitizers.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST_CASE("the plugin's static initialiser does leave the mark when its code is run") {
    // The fixture is what it claims: a program that opens it the usual way runs the initialiser, which
    // writes the mark and then dies by SIGSEGV. So the mark's absence above means famspec never ran it.
    const TempDir dir;
    const fs::path mark = dir / "mark";
    ProcessOptions options;
    options.environment["ZOO_MARK_FILE"] = mark.string();
    const ProcessResult opened = run_process(
        {"python3", "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])", fixture_file("code_never_runs").string()},
        options);
    CHECK(opened.signal == SIGSEGV);
    CHECK(read_file(mark) == "code_never_runs: its static initialiser ran\n");
}
#endif
