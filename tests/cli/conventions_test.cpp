// The conventions every famspec command follows: --json errors on stdout with the same exit codes,
// notes on stderr, --quiet, --version, did-you-mean, the list table, and the newer commands
// (info, components, interface-component, external-state, resolve --batch, plans from stdin).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "cli_support.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

namespace {

// The {"error": {...}} object a --json run printed on stdout.
json::object error_of(const ProcessResult& result) {
    INFO(describe(result));
    boost::system::error_code ec;
    const json::value value = json::parse(result.out, ec);
    REQUIRE_MESSAGE(!ec, "not JSON");
    REQUIRE(value.is_object());
    REQUIRE(value.as_object().contains("error"));
    return value.at("error").as_object();
}

std::string json_error(const std::string& kind, const std::string& message, const std::string& location = "") {
    const std::string where = location.empty() ? R"("column":null,"file":null,)" : location;
    return R"({"error":{)" + where + R"("kind":")" + kind + R"(","line":null,"message":")" + message + "\"}}\n";
}

}  // namespace

// ---- usage and did-you-mean ----------------------------------------------------------------------

TEST_CASE("an unknown command names the nearest one, as text or as JSON") {
    const ProcessResult text_run = run_cli({"lst"});
    CHECK(text_run.exit_code == kUsage);
    CHECK(text_run.out.empty());
    CHECK(text_run.err == "famspec: unknown command 'lst' (did you mean `list`?); famspec --help lists the commands\n");

    const ProcessResult json_run = run_cli({"lst", "--json"});
    CHECK(json_run.exit_code == kUsage);
    CHECK(json_run.out == json_error("usage",
                                     "unknown command 'lst' (did you mean `list`?); famspec --help lists the "
                                     "commands"));
    CHECK(json_run.err == text_run.err);

    const ProcessResult far = run_cli({"frobnicate"});
    CHECK(far.err == "famspec: unknown command 'frobnicate'; famspec --help lists the commands\n");
}

TEST_CASE("no command lists the commands") {
    const ProcessResult result = run_cli({});
    CHECK(result.exit_code == kUsage);
    CHECK(result.out.empty());
    CHECK(result.err ==
          "famspec: a command is required: list, show, info, components, interface-component, verify, resolve, "
          "check, external-state, summary, new-family, audit, sync, snapshot, diff (famspec --help)\n");
}

TEST_CASE("a named command is read as the full command line reads it: errors, help, other command names") {
    // famspec first parses a named command with that command's options alone (a cheaper start);
    // anything but a clean parse must come out exactly as the full parser has it.
    const ProcessResult unexpected = run_cli({"list", "--bogus"});
    CHECK(unexpected.exit_code == kUsage);
    CHECK(unexpected.err ==
          "famspec: The following argument was not expected: --bogus (famspec list --help shows the usage)\n");
    const ProcessResult two_commands = run_cli({"list", "show"});
    CHECK(two_commands.exit_code == kUsage);
    CHECK(two_commands.err ==
          "famspec: The following argument was not expected: show (famspec list --help shows the usage)\n");

    const ProcessResult help = run_cli({"list", "--help"});
    CHECK(help.exit_code == kOk);
    CHECK(
        help.out.starts_with("List candidate plugins from their manifests (no plugin code runs)\n"
                             "Usage: famspec list [OPTIONS]\n"));
    CHECK(help.out.find("Exit status: 0 ok;") != std::string::npos);  // the full parser's footer

    // Another command's name as a value: the full parser reads it as the family name.
    const ProcessResult family = run_cli({"show", "list"});
    CHECK(family.exit_code == kFailed);
    CHECK(family.err.starts_with("famspec: unknown family 'list'"));
}

TEST_CASE("show names the nearest family spellings") {
    const ProcessResult result = run_cli({"show", "qwen3_mo"});
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("famspec: unknown family 'qwen3_mo' (tried "));
    // Every close family, best first: one edit, then two.
    CHECK(
        result.err.ends_with(") (did you mean `qwen3_moe`, `qwen2_moe` or `qwen3_5`?); `famspec list` shows the "
                             "loaded families\n"));

    const json::object error = error_of(run_cli({"show", "qwen3_mo", "--json"}));
    CHECK(text(error, "kind") == "unknown_family");
    CHECK(text(error, "message") + "\n" == result.err.substr(std::string("famspec: ").size()));
}

// ---- --json errors, streams, --quiet, --version ----------------------------------------------------

TEST_CASE("--json errors are JSON on stdout with file, line and column, and the same exit codes") {
    const TempDir dir;
    const std::string plan = (dir / "bad.yaml").string();
    std::ofstream(plan) << "plan_overrides: {}\n";
    for (const char* command : {"check", "summary", "external-state"}) {
        CAPTURE(command);
        const ProcessResult text_run = run_cli({command, plan});
        const ProcessResult json_run = run_cli({command, plan, "--json"});
        CHECK(text_run.exit_code == kUsage);
        CHECK(json_run.exit_code == kUsage);
        CHECK(text_run.err == "famspec: " + plan + ":1:17: 'plan_overrides': expected a list, found a mapping\n");
        const json::object error = error_of(json_run);
        CHECK(text(error, "kind") == "plan");
        CHECK(text(error, "file") == plan);
        CHECK(error.at("line").as_int64() == 1);
        CHECK(error.at("column").as_int64() == 17);
        CHECK(text(error, "message") == plan + ":1:17: 'plan_overrides': expected a list, found a mapping");
    }

    // Not covered is an answer, not an error: null, exit 1, the reason on stderr.
    const ProcessResult gap = run_cli({"resolve", "--target", kQwenNorm, "--json"});
    CHECK(gap.exit_code == kFailed);
    CHECK(gap.out == "null\n");
    CHECK(gap.err.find("famspec: not covered: ") == 0);

    const ProcessResult usage = run_cli({"resolve", "--target", kQwenNorm, "--option", "novalue", "--json"});
    CHECK(usage.exit_code == kUsage);
    CHECK(usage.out == json_error("usage", "--option expects k=v, got 'novalue'"));
}

TEST_CASE("a plan's errors are all reported in one run, in file order") {
    const TempDir dir;
    const std::string plan = (dir / "many.yaml").string();
    std::ofstream(plan) << "plan_overrides:\n"
                           "  - 42\n"
                           "  - match: '*.c'\n"
                           "    exact_type: maybe\n";
    for (const char* command : {"check", "summary", "external-state"}) {
        CAPTURE(command);
        const ProcessResult text_run = run_cli({command, plan});
        CHECK(text_run.exit_code == kUsage);
        CHECK(text_run.out.empty());
        CHECK(text_run.err == "famspec: " + plan + ":2:5: plan_overrides entry: expected a mapping, found '42'\n" +
                                  "famspec: " + plan + ":4:17: 'exact_type': expected true or false, found 'maybe'\n");
        const ProcessResult json_run = run_cli({command, plan, "--json"});
        CHECK(json_run.exit_code == kUsage);
        const json::object answer = json::parse(json_run.out).as_object();
        CHECK(answer.at("error").at("line").as_int64() == 2);
        const json::array& errors = answer.at("errors").as_array();
        REQUIRE(errors.size() == 2);
        CHECK(errors[1].at("line").as_int64() == 4);
        CHECK(errors[1].at("column").as_int64() == 17);
        CHECK(answer.at("stopped_early").as_bool() == false);
    }
}

TEST_CASE("an unknown or misplaced target names the nearest one, its owner or its slot") {
    const std::string misspelt = kQwenNorm.substr(0, kQwenNorm.size() - 4) + "nrom";
    const ProcessResult near = run_cli({"resolve", "--target", misspelt, "--module-type", kQwenNormType});
    CHECK(near.exit_code == kFailed);
    CHECK(near.out == "null\n");
    CHECK(near.err == "famspec: not covered: " + misspelt +
                          " is not a replacement factory registered by family 'qwen3_moe' (did you mean `" + kQwenNorm +
                          "`?)\n");

    const ProcessResult slot = run_cli({"resolve", "--target", kQwenNorm, "--slot", "local_compute_fn", "--json"});
    CHECK(slot.exit_code == kFailed);
    CHECK(slot.out == "null\n");
    CHECK(slot.err == "famspec: not covered: wrong slot: " + kQwenNorm +
                          " is a replacement factory of family 'qwen3_moe'; it belongs in replace_module\n");

    const ProcessResult family =
        run_cli({"resolve", "--target", kQwenNorm, "--module-type", kQwenNormType, "--model-type", "deepseek_v3"});
    CHECK(family.exit_code == kFailed);
    CHECK(family.err == "famspec: not covered: wrong family: " + kQwenNorm +
                            " is a replacement factory of family 'qwen3_moe', not of 'deepseek_v3'\n");
}

TEST_CASE("stdout carries only the answer: notes go to stderr, and --quiet silences them") {
    const ProcessResult list = run_cli({"list"});
    CHECK(list.exit_code == kOk);
    CHECK(list.out.starts_with("NAME "));
    CHECK(list.err == "plugin search path (default): " + plugin_dir() + "\n");
    const ProcessResult quiet = run_cli({"list", "--quiet"});
    CHECK(quiet.out == list.out);
    CHECK(quiet.err.empty());
    // No colour is ever written, with or without a terminal type.
    ProcessOptions terminal;
    terminal.environment["TERM"] = "xterm-256color";
    terminal.environment["NO_COLOR"] = std::nullopt;
    CHECK(run_cli({"list"}, terminal).out.find('\x1b') == std::string::npos);
}

TEST_CASE("--version prints the famspec version, the plugin ABI and the build fingerprint") {
    const ProcessResult result = run_cli({"--version"});
    CHECK(result.exit_code == kOk);
    CHECK(result.out == "famspec " + std::string(famspec::core_version()) + "\nplugin ABI " +
                            std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor) +
                            "\nbuild fingerprint " + std::string(famspec::core_fingerprint()) + "\n");
}

// ---- list -----------------------------------------------------------------------------------------

TEST_CASE("list fits 100 columns with paths relative to the search directory; --long shows full paths") {
    const ProcessResult table = run_cli({"list"});
    std::istringstream lines(table.out);
    for (std::string line; std::getline(lines, line);) {
        CAPTURE(line);
        CHECK(line.size() <= 100);
    }
    CHECK(table.out.find("  famspec_qwen3_moe.so\n") != std::string::npos);
    CHECK(table.out.find(plugin_dir()) == std::string::npos);
    const ProcessResult full = run_cli({"list", "--long"});
    CHECK(full.out.find("  " + plugin_dir() + "/famspec_qwen3_moe.so\n") != std::string::npos);
}

// ---- new commands ---------------------------------------------------------------------------------

TEST_CASE("info reads a plugin's tables, ABI and fingerprint without loading it") {
    // A plugin whose code would fault if it ran: info reads the file only.
    const std::string file = fixture_file("code_never_runs").string();
    const ProcessResult text_run = run_cli({"info", file});
    INFO(describe(text_run));
    CHECK(text_run.exit_code == kOk);
    CHECK(text_run.signal == 0);
    CHECK(text_run.out.starts_with("plugin code_never_runs 1.0.0 (" + file + ")\n"));
    CHECK(text_run.out.find("  fingerprint:  " + std::string(famspec::core_fingerprint()) + "\n") != std::string::npos);
    CHECK(text_run.out.find("  families:\n    code_never_runs (CodeNeverRunsForCausalLM)\n") != std::string::npos);
    CHECK(text_run.out.find(
              "  factories:\n    hyper_parallel.models.code_never_runs.adapter.replacements.replace_norm\n") !=
          std::string::npos);

    const json::object report = run_json({"info", file, "--json"}, kOk);
    CHECK(text(report, "status") == "ok");
    CHECK(text(report, "fingerprint") == famspec::core_fingerprint());
    CHECK(text(report.at("manifest").as_object(), "name") == "code_never_runs");
    CHECK(text(report.at("core").as_object(), "fingerprint") == famspec::core_fingerprint());

    const ProcessResult refused = run_cli({"info", fixture_file("abi_major_mismatch").string()});
    CHECK(refused.exit_code == kFailed);
    CHECK(refused.err.starts_with("famspec: compatibility: " + fixture_file("abi_major_mismatch").string()));
}

TEST_CASE("components lists the catalogue") {
    const json::object report = run_json({"components", "--json"}, kOk);
    bool found = false;
    for (const auto& entry : report.at("components").as_array()) {
        const json::object& c = entry.as_object();
        if (text(c, "name") == "RMSNorm" && text(c, "import_module") == "hyper_parallel.components.modules") {
            found = true;
            CHECK(text(c, "plugin") == "components");
        }
    }
    CHECK(found);
    const ProcessResult table = run_cli({"components"});
    CHECK(table.exit_code == kOk);
    CHECK(table.out.starts_with("COMPONENT "));
}

TEST_CASE("interface-component and external-state answer the two reference questions") {
    const ProcessResult interface = run_cli({"interface-component", "Qwen3MoeForCausalLM"});
    CHECK(interface.exit_code == kOk);
    CHECK(interface.out == "GQAAttention\n");
    CHECK(run_json({"interface-component", "qwen3_moe", "--json"}, kOk).at("interface_component").as_string() ==
          "GQAAttention");
    const ProcessResult unknown = run_cli({"interface-component", "qwen3_mo"});
    CHECK(unknown.exit_code == kFailed);
    CHECK(unknown.err.find("(did you mean `qwen3_moe`, `qwen2_moe` or `qwen3_5`?)") != std::string::npos);

    const ProcessResult external = run_cli({"external-state", qwen_plan()});
    CHECK(external.exit_code == kOk);
    CHECK(external.out == "Qwen3MoeSparseMoeBlock\n");
}

TEST_CASE("resolve --batch answers one JSON line per query line") {
    ProcessOptions input;
    input.input = R"({"target": ")" + kQwenNorm + R"(", "module_type": ")" + kQwenNormType + "\"}\n" +
                  R"({"target": ")" + kQwenNorm + "\"}\n" + "not json\n";
    const ProcessResult result = run_cli({"resolve", "--batch"}, input);
    INFO(describe(result));
    CHECK(result.exit_code == kUsage);  // the worst line decides
    std::istringstream lines(result.out);
    std::vector<std::string> answers;
    for (std::string line; std::getline(lines, line);) answers.push_back(line);
    REQUIRE(answers.size() == 3);
    const ProcessResult single = run_cli({"resolve", "--target", kQwenNorm, "--module-type", kQwenNormType});
    CHECK(answers[0] == R"({"diagnostics":[],"gap":null,"reason":"","spec":)" +
                            single.out.substr(0, single.out.size() - 1) + R"(,"status":"resolved"})");
    CHECK(json::parse(answers[1]).at("status").as_string() == "not_covered");
    CHECK(answers[2] == R"({"error":{"column":null,"file":"<stdin>","kind":"usage","line":3,)"
                        R"("message":"expected a JSON object per line"}})");
}

TEST_CASE("resolve --batch refuses numbers it cannot hold and option names that move the value, line by line") {
    const std::string norm = "hyper_parallel.components.modules.rms_norm.RMSNorm";
    const auto query = [&](const std::string& options) {
        return R"({"target": ")" + norm + R"(", "module_type": ")" + kQwenNormType + R"(", "options": )" + options +
               "}\n";
    };
    ProcessOptions input;
    input.input = query(R"({"eps": 1e400})") + query(R"({"eps": 1e-400})") + query(R"({"eps": 99999999999999999999})") +
                  query(R"({"eps": 1, "eps=0.25 #": 2})") + query(R"({"eps": 1e-06})") + query(R"({"eps": 0.0})");
    const ProcessResult result = run_cli({"resolve", "--batch"}, input);
    INFO(describe(result));
    CHECK(result.exit_code == kUsage);
    std::istringstream lines(result.out);
    std::vector<std::string> answers;
    for (std::string line; std::getline(lines, line);) answers.push_back(line);
    REQUIRE(answers.size() == 6);
    const auto error = [](int line, const std::string& message) {
        return R"({"error":{"column":null,"file":"<stdin>","kind":"usage","line":)" + std::to_string(line) +
               R"(,"message":")" + message + R"("}})";
    };
    const std::string range = " is out of range (an option number must fit a double, an integer an int64)";
    CHECK(answers[0] == error(1, "number 1e400" + range));
    CHECK(answers[1] == error(2, "number 1e-400" + range));
    CHECK(answers[2] == error(3, "number 99999999999999999999" + range));
    CHECK(answers[3] == error(4, "option name 'eps=0.25 #' is not a Python identifier"));
    // The lines after a refused one are answered as usual.
    const json::value tuned = json::parse(answers[4]);
    CHECK(tuned.at("status") == "resolved");
    CHECK(tuned.at("spec").at("keyword_args").as_array().back() == "eps=1e-06");
    CHECK(json::parse(answers[5]).at("spec").at("keyword_args").as_array().back() == "eps=0.0");
}

TEST_CASE("resolve --batch answers a line over the size limit with an error and goes on") {
    ProcessOptions input;
    input.input = std::string((std::size_t{1} << 20) + 10, ' ') + "\n" + R"({"target": ")" + kQwenNorm +
                  R"(", "module_type": ")" + kQwenNormType + "\"}\n" + std::string(3 << 20, 'x');
    const ProcessResult result = run_cli({"resolve", "--batch"}, input);
    CHECK(result.exit_code == kUsage);
    std::istringstream lines(result.out);
    std::vector<std::string> answers;
    for (std::string line; std::getline(lines, line);) answers.push_back(line);
    REQUIRE(answers.size() == 3);
    const std::string too_long = R"x(,"message":"a query line is longer than 1 MiB (the rest of it is skipped)"}})x";
    CHECK(answers[0] == R"({"error":{"column":null,"file":"<stdin>","kind":"usage","line":1)" + too_long);
    CHECK(json::parse(answers[1]).at("status") == "resolved");
    // The last line has no line break: it is still a line, and still bounded.
    CHECK(answers[2] == R"({"error":{"column":null,"file":"<stdin>","kind":"usage","line":3)" + too_long);
}

TEST_CASE("summary - and check - read the plan from stdin") {
    ProcessOptions input;
    input.input = read_file(qwen_plan());
    const ProcessResult from_file = run_cli({"summary", "--digest", qwen_plan()});
    const ProcessResult from_stdin = run_cli({"summary", "--digest", "-"}, input);
    CHECK(from_stdin.exit_code == kOk);
    CHECK(from_stdin.out == from_file.out);
    const ProcessResult checked = run_cli({"check", "-"}, input);
    CHECK(checked.exit_code == kOk);
    CHECK(checked.out.find("<stdin>: ") != std::string::npos);

    ProcessOptions broken;
    broken.input = "plan_overrides: {}\n";
    const ProcessResult refused = run_cli({"check", "-"}, broken);
    CHECK(refused.exit_code == kUsage);
    CHECK(refused.err == "famspec: <stdin>:1:17: 'plan_overrides': expected a list, found a mapping\n");
}

TEST_CASE("the bash completion and the man page are generated from the command definitions") {
    const std::string completion = read_file(famspec::test::build_dir() + "/share/bash-completion/completions/famspec");
    CHECK(completion.find("complete -o filenames -F _famspec famspec\n") != std::string::npos);
    const ProcessResult completed = famspec::test::run_process(
        {"bash", "-c",
         "source '" + famspec::test::build_dir() +
             "/share/bash-completion/completions/famspec'; COMP_WORDS=(famspec l); COMP_CWORD=1; _famspec; echo "
             "\"${COMPREPLY[*]}\"; COMP_WORDS=(famspec verify --lo); COMP_CWORD=2; _famspec; echo "
             "\"${COMPREPLY[*]}\""});
    CHECK(completed.out == "list\n--long\n");
    const std::string man = read_file(famspec::test::build_dir() + "/share/man/man1/famspec.1");
    CHECK(man.find(".SS external\\-state\n") != std::string::npos);
    CHECK(man.find("\\fB\\-\\-compare\\fR \\fIFILE\\fR") != std::string::npos);
    CHECK(man.find("timeout") == std::string::npos);
}

TEST_CASE("empty option values are refused by name") {
    const ProcessResult target = run_cli({"resolve", "--target", ""});
    CHECK(target.exit_code == kUsage);
    CHECK(target.out.empty());
    CHECK(target.err == "famspec: --target: must not be empty (famspec resolve --help shows the usage)\n");
    const ProcessResult model_type = run_cli({"check", qwen_plan(), "--model-type", "", "--json"});
    CHECK(model_type.exit_code == kUsage);
    CHECK(model_type.out ==
          json_error("usage", "--model-type: must not be empty (famspec check --help shows the usage)"));
}

TEST_CASE("summary --digest --json and new-family --json answer in JSON") {
    const ProcessResult digest = run_cli({"summary", "--digest", qwen_plan()});
    const json::object as_json = run_json({"summary", "--digest", "--json", qwen_plan()}, kOk);
    CHECK(text(as_json, "digest") + "\n" == digest.out);

    const TempDir dir;
    const std::string project = (dir / "acme").string();
    const json::object written =
        run_json({"new-family", "acme_moe", "--architecture", "AcmeMoeForCausalLM", "--dir", project, "--json"}, kOk);
    CHECK(json::serialize(written) ==
          R"({"architecture":"AcmeMoeForCausalLM","directory":")" + project +
              R"(","files":["CMakeLists.txt","plugin.cpp","README.md"],"name":"acme_moe"})");
    const ProcessResult again =
        run_cli({"new-family", "acme_moe", "--architecture", "AcmeMoeForCausalLM", "--dir", project, "--json"});
    CHECK(again.exit_code == kFailed);
    CHECK(again.out == json_error("io", project + " already exists; choose another --dir or remove it"));
    CHECK(again.err == "famspec new-family: " + project + " already exists; choose another --dir or remove it\n");
}
