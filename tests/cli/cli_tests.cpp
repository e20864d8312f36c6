// The famspec CLI as a user runs it: exit codes, the plugin search path, and what list and show
// report for the fixtures of the bad-plugin zoo (verify_test.cpp has each refusal's message).
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
        {"verify", "--timeout", "1"},
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

// ---- list: the tables read, no plugin code run -----------------------------------------------------

TEST_CASE("list reports the stage each fixture fails at") {
    const std::vector<Case> cases = {
        {"zoo_good", "ok/null", kOk},
        {"not_elf", "error/manifest", kFailed},
        {"no_table_section", "error/manifest", kFailed},
        {"built_for_abi_4", "error/manifest", kFailed},
        {"truncated_plugin", "error/manifest", kFailed},
        {"segment_past_eof", "error/manifest", kFailed},
        {"section_past_eof", "error/manifest", kFailed},
        {"table_section_writable", "error/manifest", kFailed},
        {"wrong_machine", "error/compatibility", kFailed},
        {"abi_major_mismatch", "error/compatibility", kFailed},
        {"abi_minor_newer", "error/compatibility", kFailed},
        {"bad_magic", "error/compatibility", kFailed},
        {"name_outside_block", "error/register", kFailed},
        {"not_utf8", "error/register", kFailed},
        {"nul_in_family_key", "error/register", kFailed},
        {"unknown_kind", "error/register", kFailed},
        {"block_past_section", "error/register", kFailed},
        {"shared_large_string", "error/register", kFailed},
        // list runs every check of a load, the declarations' too.
        {"duplicate_factory", "error/register", kFailed},
        {"bad_allowed_default", "error/register", kFailed},
        {"misdeclared_keys", "error/register", kFailed},
        // What a dynamic linker would refuse or run changes nothing in the tables: these read whole, and
        // alone, without the catalogue their factory needs, are refused at validate as a load refuses them
        // (verify_test.cpp shows them loading beside it).
        {"old_cxx11_abi", "error/validate", kFailed},
        {"debug_containers", "error/validate", kFailed},
        {"sanitized", "error/validate", kFailed},
        {"code_never_runs", "error/validate", kFailed},
        {"unresolved_symbol", "ok/null", kOk},
    };
    for (const Case& c : cases) {
        INFO(c.fixture);
        const json::object report = run_json({"list", "--json", "--plugin-path", fixture_dir(c.fixture)}, c.exit_code);
        CHECK(outcome(report) == c.outcome);
        const auto& entry = plugins_of(report)[0].as_object();
        CHECK(text(entry, "path") == fixture_file(c.fixture).string());
        for (const char* key : {"name", "version", "abi", "paths", "message", "families", "build_id", "notes"}) {
            CHECK_MESSAGE(entry.contains(key), key);
        }
        CHECK(entry.at("notes").as_array().empty());
    }
}

TEST_CASE("list shows a good plugin's manifest") {
    const json::object report = run_json({"list", "--json", "--plugin-path", fixture_dir("zoo_good")}, kOk);
    const auto& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "name") == "zoo_good");
    CHECK(text(entry, "version") == "1.2.3");
    CHECK(text(entry, "abi") == std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor));
    CHECK(text(entry, "message").empty());
    CHECK(entry.at("families") == json::array{"zoo_good"});
    CHECK(entry.at("paths") == json::array{json::value(fixture_file("zoo_good").string())});
}

TEST_CASE("list names both sides of an ABI mismatch") {
    const json::object report =
        run_json({"list", "--json", "--plugin-path", fixture_dir("abi_major_mismatch")}, kFailed);
    const auto& entry = plugins_of(report)[0].as_object();
    const std::string core = "ABI " + std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor) +
                             ", " + std::string(famspec::core_fingerprint());
    const std::string plugin = "ABI 99." + std::to_string(famspec::kAbiMinor);
    CHECK(text(entry, "message") == fixture_file("abi_major_mismatch").string() + ": has ABI major 99; the plugin is " +
                                        plugin + "; this core is " + core + "; rebuild it against famspec " +
                                        std::string(famspec::core_version()));
    CHECK(text(entry, "expected") == core);
    CHECK(text(entry, "found") == plugin);
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

// ---- verify ---------------------------------------------------------------------------------------

TEST_CASE("verify passes on the shipped plugins") {
    const json::object report = run_json({"verify", "--json"}, kOk);
    CHECK_FALSE(plugins_of(report).empty());
    for (const auto& entry : plugins_of(report)) {
        CHECK(text(entry.as_object(), "status") == "ok");
        CHECK(text(entry.as_object(), "stage") == "null");
    }
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
