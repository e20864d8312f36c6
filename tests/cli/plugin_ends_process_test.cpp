// famspec never exits 0 unless it finished: a plugin that ends or kills the process while it loads is
// named with its path and stage, and what a plugin prints on stdout never joins the answer. Also:
// snapshot's exit status when a plugin failed, and what verify shows of a child's bytes and fd 3.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "cli_support.hpp"

using namespace famspec::test::cli;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool has_high_bytes(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

std::vector<std::string> summary_with(const std::string& fixture) {
    return {"summary", "--digest", qwen_plan(), "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir(fixture)};
}

const json::object& only_entry(const json::object& report) {
    REQUIRE(plugins_of(report).size() == 1);
    return plugins_of(report)[0].as_object();
}

}  // namespace

TEST_CASE("a plugin that prints a digest and calls _exit(0) while it registers: exit 1, named, nothing on stdout") {
    const std::string plugin = fixture_file("underscore_exit_in_register").string();
    const ProcessResult result = run_cli(summary_with("underscore_exit_in_register"));
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    // What the plugin printed on stdout went to stderr, where it cannot pass for the answer.
    CHECK(result.err ==
          "sha256:0000000000000000000000000000000000000000000000000000000000000000\n"
          "famspec: error: plugin " +
              plugin +
              " ended the process (exit status 0) during open, before famspec finished; famspec "
              "stops with status 1\n");

    std::vector<std::string> json_run = summary_with("underscore_exit_in_register");
    json_run.push_back("--json");
    const json::object error = run_json(json_run, kFailed).at("error").as_object();
    CHECK(text(error, "kind") == "plugin_exit");
    CHECK(text(error, "message") == "plugin " + plugin +
                                        " ended the process (exit status 0) during open, before famspec "
                                        "finished; famspec stops with status 1");
}

TEST_CASE("a plugin that crashes while it registers: exit 1, and the plugin and stage are named") {
    const std::string plugin = fixture_file("crash_in_register").string();
    const ProcessResult result = run_cli(summary_with("crash_in_register"));
    INFO(describe(result));
    CHECK(result.signal == 0);
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(contains(result.err, "famspec: error: plugin " + plugin +
                                   " killed the process with SIGSEGV during open, before famspec finished; "
                                   "famspec stops with status 1\n"));
}

TEST_CASE("what a plugin prints on stdout while it loads goes to stderr, never into the answer") {
    const ProcessResult result = run_cli({"show", "prints_while_registering", "--plugin-path", plugin_dir(),
                                          "--plugin-path", fixture_dir("prints_while_registering")});
    INFO(describe(result));
    CHECK(result.exit_code == kOk);
    CHECK(result.out.starts_with("family prints_while_registering\n"));
    CHECK_FALSE(contains(result.out, "printed by a plugin"));
    CHECK(contains(result.err, "printed by a plugin with printf\n"));
    CHECK(contains(result.err, "printed by a plugin with std::cout\n"));

    const ProcessResult digest = run_cli(summary_with("prints_while_registering"));
    CHECK(digest.exit_code == kOk);
    CHECK(digest.out.starts_with("sha256:"));
    CHECK(digest.out.size() == std::string("sha256:").size() + 64 + 1);
}

TEST_CASE("snapshot exits 1 when a plugin failed, 0 with --allow-partial") {
    const ProcessResult failed = run_cli({"snapshot", "--plugin-path", fixture_dir("manifest_corrupt")});
    CHECK(failed.exit_code == kFailed);
    CHECK(contains(failed.err, "famspec: error: plugin not loaded (manifest): "));
    const ProcessResult json_failed = run_cli({"snapshot", "--json", "--plugin-path", fixture_dir("manifest_corrupt")});
    CHECK(json_failed.exit_code == kFailed);
    CHECK(contains(json_failed.out, R"("status":"error")"));
    const ProcessResult partial =
        run_cli({"snapshot", "--allow-partial", "--plugin-path", fixture_dir("manifest_corrupt")});
    CHECK(partial.exit_code == kOk);
    const ProcessResult good = run_cli({"snapshot", "--plugin-path", plugin_dir()});
    CHECK(good.exit_code == kOk);
}

TEST_CASE("verify escapes every byte a plugin's child printed, bytes >= 0x80 included") {
    const ProcessResult table = run_cli({"verify", "--plugin-path", fixture_dir("crash_in_register")});
    CHECK(table.exit_code == kFailed);
    CHECK_FALSE(has_high_bytes(table.out));

    const ProcessResult raw = run_cli({"verify", "--json", "--plugin-path", fixture_dir("crash_in_register")});
    CHECK(raw.exit_code == kFailed);
    CHECK_FALSE(has_high_bytes(raw.out));
    const json::object report = json::parse(raw.out).as_object();
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "crashed");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message") == fixture_file("crash_in_register").string() +
                                        ": crashed with SIGSEGV during open; its last output: crash_in_register: "
                                        "about to fault \\xe2\\x80\\xae\\x9b\\xff");
    CHECK(contains(text(entry, "output"), "about to fault \\xe2\\x80\\xae\\x9b\\xff\n"));
}

TEST_CASE("verify reports a plugin that closes fd 3 as that, not as an exit") {
    const std::string plugin = fixture_file("closes_report_fd").string();
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("closes_report_fd")}, kFailed);
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "error");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message") == plugin +
                                        ": closed famspec's report descriptor (fd 3) during open; its last "
                                        "output: famspec: error: " +
                                        plugin + " closed or replaced famspec's report descriptor (fd 3) during open");
}
