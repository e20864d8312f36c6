// famspec verify cannot be fooled: a plugin's word counts only with its result line and a zero exit
// status; a malformed report is reported, not fatal; a grandchild dies with the child; and the same
// exit() that verify catches in its child ends an in-process famspec with status 1.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "cli_support.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

namespace {

const json::object& only_entry(const json::object& report) {
    REQUIRE(plugins_of(report).size() == 1);
    return plugins_of(report)[0].as_object();
}

std::string guard_line(const std::string& fixture, const std::string& stage) {
    return "famspec: error: plugin " + fixture_file(fixture).string() + " called exit() during " + stage +
           " (status 0); famspec stops with status 1";
}

// Dead, or a zombie nobody has reaped yet: either way it holds nothing open.
bool process_gone(const std::string& pid) {
    std::ifstream stat("/proc/" + pid + "/stat");
    if (!stat) return true;
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    return close != std::string::npos && line.size() > close + 2 && line[close + 2] == 'Z';
}

}  // namespace

TEST_CASE("a plugin that registers nothing is warned about at build time and by verify") {
    const std::string plugin = fixture_file("registers_nothing").string();
    const std::string warning =
        "plugin 'registers_nothing' registers nothing: its entry point adds no family, factory, archetype, CP "
        "wrapper or component";
    const ProcessResult text_run = run_cli({"verify", "--plugin-path", fixture_dir("registers_nothing")});
    CHECK(text_run.exit_code == kOk);
    CHECK(text_run.err.find("famspec: warning: " + plugin + ": " + warning + "\n") != std::string::npos);
    const json::object report = run_json({"verify", "--json", "--plugin-path", fixture_dir("registers_nothing")}, kOk);
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "ok");
    CHECK(entry.at("warnings").as_array() == json::array{json::value(warning)});

    const famspec::test::TempDir dir;
    const ProcessResult built = famspec::test::run_process(
        {FAMSPEC_TEST_MANIFEST_TOOL, "generate", plugin, "-o", (dir / "manifest.json").string()});
    CHECK(built.exit_code == 0);
    CHECK(built.err == "famspec-manifest: warning: plugin 'registers_nothing' (" + plugin +
                           ") registers nothing: its entry point adds no family, factory, archetype, CP wrapper or "
                           "component\n");
}

TEST_CASE("verify reports a plugin that calls exit(0) while it is opened, not ok") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("exit_in_register")}, kFailed);
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "exited");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message") ==
          fixture_file("exit_in_register").string() +
              ": exited with status 1 during open; its last output: " + guard_line("exit_in_register", "open"));
}

TEST_CASE("verify reports a plugin that calls exit(0) in a static constructor") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("exit_in_static_init")}, kFailed);
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "exited");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message") ==
          fixture_file("exit_in_static_init").string() +
              ": exited with status 1 during open; its last output: " + guard_line("exit_in_static_init", "open"));
}

TEST_CASE("verify does not take a forged ok result from a child that did not exit 0") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("forged_result_then_exit")}, kFailed);
    const json::object& entry = only_entry(report);
    CHECK(text(entry, "status") == "exited");
    CHECK(text(entry, "message")
              .starts_with(fixture_file("forged_result_then_exit").string() + ": exited with status 1 during open"));
}

TEST_CASE("verify reports a malformed report line and goes on with the other plugins") {
    const json::object report = run_json({"verify", "--json", "--plugin-path", fixture_dir("malformed_report"),
                                          "--plugin-path", fixture_dir("zoo_good")},
                                         kFailed);
    const json::object& bad = entry_for(report, "famspec_malformed_report.so");
    CHECK(text(bad, "status") == "error");
    CHECK(text(bad, "stage") == "open");
    CHECK(text(bad, "message") == fixture_file("malformed_report").string() +
                                      ": its report to famspec was malformed (it names no known stage: "
                                      "'stage \\x1b[2Jregister') during open");
    CHECK(text(entry_for(report, "famspec_zoo_good.so"), "status") == "ok");

    // The table escapes it too: no raw ESC reaches the terminal.
    const ProcessResult table = run_cli({"verify", "--plugin-path", fixture_dir("malformed_report")});
    CHECK(table.exit_code == kFailed);
    CHECK(table.out.find('\x1b') == std::string::npos);
    CHECK(table.out.find("'stage \\x1b[2Jregister'") != std::string::npos);
}

TEST_CASE("verify kills a grandchild the plugin forked, and does not wait for it") {
    const TempDir dir;
    const std::string pid_file = (dir / "grandchild.pid").string();
    ProcessOptions options;
    options.environment["FAMSPEC_TEST_GRANDCHILD_PIDFILE"] = pid_file;
    // The grandchild would sleep for ten minutes with verify's pipes open; the timeout is 60 s, so
    // an "ok" (not "timeout") shows verify stopped waiting when the child exited.
    const json::object report = run_json(
        {"verify", "--json", "--timeout", "60", "--plugin-path", fixture_dir("fork_grandchild")}, kOk, options);
    CHECK(text(only_entry(report), "status") == "ok");
    std::string pid;
    std::ifstream(pid_file) >> pid;
    REQUIRE_FALSE(pid.empty());
    bool gone = false;
    for (int attempt = 0; attempt < 100 && !gone; ++attempt) {
        gone = process_gone(pid);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_MESSAGE(gone, "grandchild " << pid << " still runs");
}

TEST_CASE("verify refuses a timeout of 0 or less, or over a day") {
    for (const char* timeout : {"0", "-1", "86400.5", "1e400", "inf", "nan", "soon", ""}) {
        CAPTURE(timeout);
        const ProcessResult result = run_cli({"verify", "--timeout", timeout});
        CHECK(result.exit_code == kUsage);
        CHECK(result.out.empty());
        CHECK(result.err == std::string("famspec: --timeout must be a number of seconds more than 0 and at most "
                                        "86400 (one day), got '") +
                                timeout + "'\n");
    }
    const ProcessResult day = run_cli({"verify", "--timeout", "86400", "--plugin-path", fixture_dir("zoo_good")});
    CHECK(day.exit_code == kOk);
}

TEST_CASE("an in-process load that calls exit(0) ends famspec with status 1 and says why") {
    for (const auto& [fixture, stage] :
         {std::pair<std::string, std::string>{"exit_in_register", "open"}, {"exit_in_static_init", "open"}}) {
        CAPTURE(fixture);
        const ProcessResult shown = run_cli({"show", fixture, "--plugin-path", fixture_dir(fixture)});
        CHECK(shown.exit_code == kFailed);
        CHECK(shown.out.empty());
        CHECK(shown.err == guard_line(fixture, stage) + "\n");

        const ProcessResult as_json = run_cli({"show", fixture, "--json", "--plugin-path", fixture_dir(fixture)});
        CHECK(as_json.exit_code == kFailed);
        const json::value error = json::parse(as_json.out);
        CHECK(text(error.at("error").as_object(), "kind") == "plugin_exit");
        CHECK(text(error.at("error").as_object(), "message") ==
              guard_line(fixture, stage).substr(std::string("famspec: error: ").size()));
    }
}
