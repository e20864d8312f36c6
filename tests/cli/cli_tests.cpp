// The famspec CLI as a user runs it: exit codes, the plugin search path, and what list, verify and
// show report for each fixture of the bad-plugin zoo.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

// ---- usage ----------------------------------------------------------------------------------------

TEST_CASE("help and version exit 0") {
    const ProcessResult help = run_cli({"--help"});
    INFO(describe(help));
    CHECK(help.exit_code == kOk);
    for (const char* word : {"list", "show", "verify", "--plugin-path", "FAMSPEC_PLUGIN_PATH"}) {
        CHECK_MESSAGE(help.out.find(word) != std::string::npos, word);
    }
    const ProcessResult version = run_cli({"--version"});
    INFO(describe(version));
    CHECK(version.exit_code == kOk);
    CHECK(version.out.find("famspec " + std::string(famspec::core_version())) == 0);
}

TEST_CASE("usage errors exit 2") {
    const std::vector<std::vector<std::string>> cases = {
        {},
        {"no-such-command"},
        {"list", "--no-such-flag"},
        {"show"},
        {"verify", "--timeout", "-1"},
        {"verify", "--timeout", "soon"},
        {"list", "--plugin-path"},
        {"list", "unexpected-argument"},
        {"show", "a", "b"},
    };
    for (const auto& arguments : cases) {
        const ProcessResult result = run_cli(arguments);
        INFO(describe(result));
        CHECK(result.exit_code == kUsage);
        CHECK_FALSE(result.err.empty());
    }
}

// ---- search path ----------------------------------------------------------------------------------

TEST_CASE("plugin-path is accepted before and after the command") {
    const std::string dir = fixture_dir("zoo_good");
    const ProcessResult before = run_cli({"--plugin-path", dir, "list", "--json"});
    const ProcessResult after = run_cli({"list", "--json", "--plugin-path", dir});
    INFO(describe(before));
    INFO(describe(after));
    CHECK(before.exit_code == kOk);
    CHECK(after.exit_code == kOk);
    CHECK(before.out == after.out);
    const json::object report = run_json({"list", "--plugin-path", dir, "--json"}, kOk);
    CHECK(outcome(report) == "ok/null");
    CHECK(text(plugins_of(report)[0].as_object(), "name") == "zoo_good");
}

TEST_CASE("plugin-path is repeatable and searched in order") {
    const json::object report = run_json(
        {"list", "--json", "--plugin-path", fixture_dir("zoo_good"), "--plugin-path", famspec::test::plugin_dir()},
        kOk);
    const auto& search = report.at("search_path").as_object();
    CHECK(text(search, "origin") == "--plugin-path");
    const auto& directories = search.at("directories").as_array();
    REQUIRE(directories.size() == 2);
    CHECK(directories[0].as_string() == fixture_dir("zoo_good"));
    CHECK(directories[1].as_string() == famspec::test::plugin_dir());
    const auto& plugins = plugins_of(report);
    REQUIRE(plugins.size() >= 2);
    CHECK(text(plugins[0].as_object(), "path") == fixture_file("zoo_good").string());
}

TEST_CASE("FAMSPEC_PLUGIN_PATH is used without a flag and the flag overrides it") {
    ProcessOptions environment;
    environment.environment["FAMSPEC_PLUGIN_PATH"] = fixture_dir("not_elf") + ":" + fixture_dir("zoo_good");
    const json::object from_env = run_json({"list", "--json"}, kFailed, environment);
    CHECK(text(from_env.at("search_path").as_object(), "origin") == "FAMSPEC_PLUGIN_PATH");
    REQUIRE(plugins_of(from_env).size() == 2);
    CHECK(text(plugins_of(from_env)[0].as_object(), "path") == fixture_file("not_elf").string());
    CHECK(text(plugins_of(from_env)[1].as_object(), "path") == fixture_file("zoo_good").string());

    const json::object from_flag =
        run_json({"list", "--json", "--plugin-path", fixture_dir("zoo_good")}, kOk, environment);
    CHECK(text(from_flag.at("search_path").as_object(), "origin") == "--plugin-path");
    CHECK(outcome(from_flag) == "ok/null");
}

TEST_CASE("without flag or environment the directory next to the executable is searched") {
    const json::object report = run_json({"list", "--json"}, kOk);
    const auto& search = report.at("search_path").as_object();
    CHECK(text(search, "origin") == "default");
    const auto& directories = search.at("directories").as_array();
    REQUIRE(directories.size() == 1);
    CHECK(fs::equivalent(std::string(directories[0].as_string()), famspec::test::plugin_dir()));
    CHECK_FALSE(plugins_of(report).empty());
}

TEST_CASE("a relative plugin path is a find error and never resolved against the working directory") {
    // From the build directory this relative path names the good fixture; it must still be refused.
    ProcessOptions in_build;
    in_build.working_directory = famspec::test::build_dir();
    const std::string relative = "tests/fixtures/zoo_good";
    REQUIRE(fs::exists(fs::path(famspec::test::build_dir()) / relative / "famspec_zoo_good.so"));

    const json::object report = run_json({"list", "--json", "--plugin-path", relative}, kFailed, in_build);
    CHECK(outcome(report) == "error/find");
    CHECK(text(plugins_of(report)[0].as_object(), "path") == relative);

    in_build.environment["FAMSPEC_PLUGIN_PATH"] = relative;
    const json::object from_env = run_json({"verify", "--json"}, kFailed, in_build);
    CHECK(outcome(from_env) == "error/find");
}

TEST_CASE("a missing plugin directory is a find error") {
    const TempDir dir;
    const std::string missing = (dir / "missing").string();
    for (const char* command : {"list", "verify"}) {
        const json::object report = run_json({command, "--json", "--plugin-path", missing}, kFailed);
        CHECK(outcome(report) == "error/find");
        CHECK(text(plugins_of(report)[0].as_object(), "path") == missing);
    }
}

// One fixture, the "status/stage" a command reports for it, and the command's exit code.
struct Case {
    const char* fixture;
    const char* outcome;
    int exit_code;
};

// ---- list: manifests only ------------------------------------------------------------------------

TEST_CASE("list reports the stage each fixture fails at without running plugin code") {
    const std::vector<Case> cases = {
        {"zoo_good", "ok/null", kOk},
        {"not_elf", "error/manifest", kFailed},
        {"manifest_missing", "error/manifest", kFailed},
        {"manifest_corrupt", "error/manifest", kFailed},
        {"abi_major_mismatch", "error/compatibility", kFailed},
        {"abi_minor_newer", "error/compatibility", kFailed},
        {"descriptor_too_small", "error/compatibility", kFailed},
        {"fingerprint_mismatch", "error/compatibility", kFailed},
        {"debug_containers", "error/compatibility", kFailed},
        {"newer_stdlib", "error/compatibility", kFailed},
        {"built_elsewhere", "ok/null", kOk},
        // Their manifests are sound: only loading them shows the failure.
        {"no_entry_symbol", "ok/null", kOk},
        {"unresolved_symbol", "ok/null", kOk},
        {"abi_major_handshake", "ok/null", kOk},
        {"duplicate_factory", "ok/null", kOk},
        {"manifest_drift", "ok/null", kOk},
        // Listing would crash or hang if it ran plugin code.
        {"segfaults_in_static_init", "ok/null", kOk},
        {"hangs_in_static_init", "ok/null", kOk},
    };
    for (const Case& c : cases) {
        INFO(c.fixture);
        const json::object report = run_json({"list", "--json", "--plugin-path", fixture_dir(c.fixture)}, c.exit_code);
        CHECK(outcome(report) == c.outcome);
        const auto& entry = plugins_of(report)[0].as_object();
        CHECK(text(entry, "path") == fixture_file(c.fixture).string());
        for (const char* key : {"name", "version", "abi", "paths", "message", "families"}) {
            CHECK_MESSAGE(entry.contains(key), key);
        }
    }
}

TEST_CASE("list shows a good plugin's manifest") {
    const json::object report = run_json({"list", "--json", "--plugin-path", fixture_dir("zoo_good")}, kOk);
    const auto& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "name") == "zoo_good");
    CHECK(text(entry, "version") == "1.2.3");
    CHECK(text(entry, "abi") == "4.0");
    CHECK(text(entry, "message").empty());
    CHECK(entry.at("families") == json::array{"zoo_good"});
    CHECK(entry.at("paths") == json::array{json::value(fixture_file("zoo_good").string())});
}

TEST_CASE("list names both sides of an ABI mismatch") {
    const json::object report =
        run_json({"list", "--json", "--plugin-path", fixture_dir("abi_major_mismatch")}, kFailed);
    const std::string message = text(plugins_of(report)[0].as_object(), "message");
    CHECK(message.find(fixture_file("abi_major_mismatch").string()) == 0);
    CHECK(message.find("built for ABI 99." + std::to_string(famspec::kAbiMinor)) != std::string::npos);
    CHECK(message.find("this core is ABI 4.0") != std::string::npos);
    CHECK(message.find("rebuild") != std::string::npos);
}

TEST_CASE("list reports the same family in two plugins on both") {
    const json::object report =
        run_json({"list", "--json", "--plugin-path", fixture_dir("same_family_two_plugins")}, kFailed);
    const auto& first = entry_for(report, "famspec_family_twin_a.so");
    const auto& second = entry_for(report, "famspec_family_twin_b.so");
    for (const auto* entry : {&first, &second}) {
        CHECK(text(*entry, "status") == "error");
        CHECK(text(*entry, "stage") == "validate");
    }
    CHECK(text(first, "message").find(text(second, "path")) != std::string::npos);
    CHECK(text(second, "message").find(text(first, "path")) != std::string::npos);
}

TEST_CASE("list shows one row for a file reached through several paths") {
    const TempDir dir;
    reach_one_file_four_ways(dir, fixture_file("zoo_good"));
    const json::object report = run_json({"list", "--json", "--plugin-path", dir.path().string()}, kOk);
    REQUIRE(plugins_of(report).size() == 1);
    const auto& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "path") == (dir / "copy.so").string());
    CHECK(entry.at("paths") ==
          json::array{json::value((dir / "copy.so").string()), json::value((dir / "hard.so").string()),
                      json::value((dir / "link.so").string()), json::value((dir / "orig.so").string())});

    const ProcessResult table = run_cli({"list", "--plugin-path", dir.path().string()});
    INFO(describe(table));
    CHECK(table.exit_code == kOk);
    CHECK(table.out.find("  zoo_good  copy.so, hard.so, link.so, orig.so\n") != std::string::npos);
    const ProcessResult full = run_cli({"list", "--long", "--plugin-path", dir.path().string()});
    CHECK(full.out.find((dir / "link.so").string()) != std::string::npos);
}

TEST_CASE("list output is stable") {
    const std::vector<std::string> arguments = {
        "list", "--json", "--plugin-path", fixture_dir("text_outside_block"), "--plugin-path", fixture_dir("not_elf")};
    const ProcessResult first = run_cli(arguments);
    const ProcessResult second = run_cli(arguments);
    CHECK(first.exit_code == kFailed);
    CHECK(first.out == second.out);
    CHECK_FALSE(first.out.empty());
}

TEST_CASE("list prints a table with a row per candidate and the failure reasons") {
    const ProcessResult result =
        run_cli({"list", "--plugin-path", fixture_dir("zoo_good"), "--plugin-path", fixture_dir("abi_major_mismatch")});
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.find("NAME") != std::string::npos);
    CHECK(result.out.find("zoo_good") != std::string::npos);
    CHECK(result.out.find("error (compatibility)") != std::string::npos);
    CHECK(result.out.find("has ABI major 99") != std::string::npos);
}

// ---- verify: each plugin loaded in a child process ------------------------------------------------

TEST_CASE("verify reports the stage each fixture fails at when loaded") {
    const std::vector<Case> cases = {
        {"zoo_good", "ok/null", kOk},
        {"not_elf", "error/manifest", kFailed},
        {"manifest_missing", "error/manifest", kFailed},
        {"abi_major_mismatch", "error/compatibility", kFailed},
        {"fingerprint_mismatch", "error/compatibility", kFailed},
        {"debug_containers", "error/compatibility", kFailed},
        {"built_elsewhere", "ok/null", kOk},
        {"unresolved_symbol", "error/open", kFailed},
        {"no_entry_symbol", "error/entry", kFailed},
        {"entry_from_dependency", "error/entry", kFailed},
        {"abi_major_handshake", "error/handshake", kFailed},
        {"duplicate_factory", "error/register", kFailed},
        {"manifest_drift", "error/validate", kFailed},
    };
    for (const Case& c : cases) {
        INFO(c.fixture);
        const json::object report =
            run_json({"verify", "--json", "--plugin-path", fixture_dir(c.fixture)}, c.exit_code);
        CHECK(outcome(report) == c.outcome);
        CHECK(plugins_of(report)[0].as_object().at("signal").is_null());
    }
}

TEST_CASE("verify shows the dlerror text of an unresolved symbol") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("unresolved_symbol")}, kFailed);
    const std::string message = text(plugins_of(report)[0].as_object(), "message");
    CHECK(message.find("undefined symbol") != std::string::npos);
    CHECK(message.find("zoo_description_nobody_defines") != std::string::npos);
    CHECK(message.find("Bad file descriptor") == std::string::npos);
}

TEST_CASE("verify reports a plugin that crashes while loading and survives it") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("segfaults_in_static_init")}, kFailed);
    const auto& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "status") == "crashed");
    CHECK(text(entry, "signal") == "SIGSEGV");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message")
              .find("crashed with SIGSEGV during open; its last output: "
                    "segfaults_in_static_init: about to fault") != std::string::npos);
    CHECK(text(entry, "output") == "segfaults_in_static_init: about to fault\n");

    // The other plugins of the search path are still verified.
    const json::object mixed = run_json({"verify", "--json", "--plugin-path", fixture_dir("segfaults_in_static_init"),
                                         "--plugin-path", fixture_dir("zoo_good")},
                                        kFailed);
    CHECK(text(entry_for(mixed, "famspec_segfaults_in_static_init.so"), "status") == "crashed");
    CHECK(text(entry_for(mixed, "famspec_zoo_good.so"), "status") == "ok");

    const ProcessResult table = run_cli({"verify", "--plugin-path", fixture_dir("segfaults_in_static_init")});
    INFO(describe(table));
    CHECK(table.signal == 0);
    CHECK(table.exit_code == kFailed);
    CHECK(table.out.find("crashed") != std::string::npos);
    CHECK(table.out.find("SIGSEGV") != std::string::npos);
}

TEST_CASE("verify gives up on a plugin that does not finish loading") {
    const json::object report = run_json(
        {"verify", "--json", "--timeout", "0.3", "--plugin-path", fixture_dir("hangs_in_static_init")}, kFailed);
    const auto& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "status") == "timeout");
    CHECK(text(entry, "stage") == "open");
    CHECK(text(entry, "message").find("timed out") != std::string::npos);
}

TEST_CASE("verify goes on past a plugin whose tables cannot be read") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("text_outside_block")}, kFailed);
    const auto& refused = entry_for(report, "famspec_text_outside_block.so");
    CHECK(text(refused, "status") == "error");
    CHECK(text(refused, "stage") == "register");
    CHECK(text(refused, "message") == fixture_file("text_outside_block").string() +
                                          ": refused: its tables cannot be read: a table row names a string or "
                                          "list outside its array");
    CHECK(text(entry_for(report, "famspec_outside_block_neighbor.so"), "status") == "ok");
}

TEST_CASE("verify reports the same family in two plugins on both") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("same_family_two_plugins")}, kFailed);
    const auto& first = entry_for(report, "famspec_family_twin_a.so");
    const auto& second = entry_for(report, "famspec_family_twin_b.so");
    for (const auto* entry : {&first, &second}) {
        CHECK(text(*entry, "status") == "error");
        CHECK(text(*entry, "stage") == "validate");
    }
    CHECK(text(second, "message").find(text(first, "path")) != std::string::npos);
    CHECK(text(first, "message").find(text(second, "path")) != std::string::npos);
}

// A plugin refused at load claims nothing, in verify as in an in-process load: the later plugin with
// the same family is not a duplicate.
TEST_CASE("verify lets a plugin refused at load claim nothing") {
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("claim_of_refused_plugin")}, kFailed);
    CHECK(text(entry_for(report, "famspec_claim_a_refused.so"), "stage") == "handshake");
    CHECK(text(entry_for(report, "famspec_claim_b_loaded.so"), "status") == "ok");
}

TEST_CASE("verify passes on the shipped plugins") {
    const json::object report = run_json({"verify", "--json"}, kOk);
    CHECK_FALSE(plugins_of(report).empty());
    for (const auto& entry : plugins_of(report)) CHECK(text(entry.as_object(), "status") == "ok");
}

// ---- show -----------------------------------------------------------------------------------------

TEST_CASE("show finds a family by any spelling") {
    for (const char* spelling : {"zoo_good", "ZooGoodForCausalLM", "zoo-good-chat", "ZOO_GOOD", "zoogood"}) {
        INFO(spelling);
        const json::object report =
            run_json({"show", spelling, "--json", "--plugin-path", fixture_dir("zoo_good")}, kOk);
        CHECK(text(report, "model_type") == "zoo_good");
        CHECK(text(report, "architecture") == "ZooGoodForCausalLM");
        CHECK(text(report, "plugin") == "zoo_good");
        CHECK(report.at("factories").as_array().size() == 2);
        CHECK(report.at("cp_wrappers").as_array().size() == 1);
        CHECK(report.at("archetypes").as_array().size() == 1);
    }
    const ProcessResult table = run_cli({"--plugin-path", fixture_dir("zoo_good"), "show", "zoo-good-chat"});
    INFO(describe(table));
    CHECK(table.exit_code == kOk);
    CHECK(table.out.find("family zoo_good") == 0);
    CHECK(table.out.find("replace_zoo_norm") != std::string::npos);
}

TEST_CASE("show exits 1 for an unknown family") {
    const ProcessResult result = run_cli({"show", "no_such_family", "--plugin-path", fixture_dir("zoo_good")});
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.err.find("unknown family 'no_such_family'") != std::string::npos);
}

TEST_CASE("show finds a shipped family from the default directory") {
    const json::object report = run_json({"show", "Qwen3MoeForCausalLM", "--json"}, kOk);
    CHECK(text(report, "model_type") == "qwen3_moe");
}

TEST_CASE("show still answers when another plugin in the path fails") {
    const ProcessResult result = run_cli({"show", "outside_block_neighbor", "--plugin-path",
                                          fixture_dir("text_outside_block"), "--plugin-path", plugin_dir()});
    INFO(describe(result));
    CHECK(result.exit_code == kOk);
    CHECK(result.err.find("famspec_text_outside_block.so") != std::string::npos);
    CHECK(result.out.find("family outside_block_neighbor") == 0);
}

// ---- a plugin built by another compiler --------------------------------------------------------------

TEST_CASE("a plugin built by another compiler loads; each command notes it on stderr, and --quiet hides it") {
    const std::string dir = fixture_dir("built_elsewhere");
    const std::string file = fixture_file("built_elsewhere").string();
    const std::string note = "famspec: note: " + file +
                             ": plugin 'built_elsewhere' was built differently from this famspec, which does not "
                             "change the ABI (compiler [CMAKE_CXX_COMPILER]: plugin clang-99.0.0, core " +
                             famspec::fingerprint_field(famspec::core_fingerprint(), "compiler") + ")\n";
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"list"}, {"show", "built_elsewhere"}, {"verify"}, {"info", file}}) {
        std::vector<std::string> arguments = command;
        // The shipped plugins too, for the component its factory wraps.
        if (command[0] != "info")
            arguments.insert(arguments.end(), {"--plugin-path", dir, "--plugin-path", plugin_dir()});
        const ProcessResult noted = run_cli(arguments);
        INFO(describe(noted));
        CHECK(noted.exit_code == kOk);
        CHECK(noted.err.find(note) != std::string::npos);
        CHECK(noted.out.find("famspec: note") == std::string::npos);
        arguments.emplace_back("--quiet");
        const ProcessResult quiet = run_cli(arguments);
        INFO(describe(quiet));
        CHECK(quiet.exit_code == kOk);
        CHECK(quiet.err.find("famspec: note") == std::string::npos);
        CHECK(quiet.out == noted.out);
    }
    const ProcessResult info = run_cli({"info", file});
    CHECK(info.out.find("  compiler:     clang-99.0.0 (this famspec: " +
                        famspec::fingerprint_field(famspec::core_fingerprint(), "compiler") + ")\n") !=
          std::string::npos);
    const json::object report = run_json({"list", "--json", "--plugin-path", dir}, kOk);
    const auto& notes = plugins_of(report)[0].as_object().at("notes").as_array();
    REQUIRE_FALSE(notes.empty());
    CHECK(note.find(std::string(notes[0].as_string())) != std::string::npos);
}
