// famspec verify reads and checks every plugin file whole, in its own process: each refusal of the
// bad-plugin zoo is named by its file, its stage and what is wrong, as verify, list and summary
// report it; the plugins a dynamic linker would refuse or run load; and the options of the old
// probe child are gone.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

namespace {

// The example plan's digest, from the shipped plugins (README).
const std::string kQwenDigest = "sha256:63e4b22e4e55807a6ef0eea1a20f61623237e85250ac076b546c9f230b91e54d\n";
// Zoo plugins refused only when their declarations are copied (stage register), not by their claims.
const std::set<std::string> kRefusedInItsRowsOnly = {"bad_allowed_default", "misdeclared_keys"};

const std::string kNoAnswer =
    "famspec: error: not every plugin loaded, so no answer is given; fix the plugins above, or pass --allow-partial "
    "to answer from the plugins that did load\n";

std::uint64_t u64_at(const std::string& bytes, std::size_t offset) {
    REQUIRE(offset + 8 <= bytes.size());
    std::uint64_t value = 0;
    std::memcpy(&value, bytes.data() + offset, 8);
    return value;
}

std::uint32_t u32_at(const std::string& bytes, std::size_t offset) {
    REQUIRE(offset + 4 <= bytes.size());
    std::uint32_t value = 0;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

std::uint16_t u16_at(const std::string& bytes, std::size_t offset) {
    REQUIRE(offset + 2 <= bytes.size());
    std::uint16_t value = 0;
    std::memcpy(&value, bytes.data() + offset, 2);
    return value;
}

// The section header of `name` in a little-endian ELF64 file (0 when there is none).
std::uint64_t section_header(const std::string& elf, const std::string& name) {
    const std::uint64_t shoff = u64_at(elf, 0x28);
    const std::uint16_t shentsize = u16_at(elf, 0x3A);
    const std::uint16_t shnum = u16_at(elf, 0x3C);
    const std::uint16_t shstrndx = u16_at(elf, 0x3E);
    const std::uint64_t names = u64_at(elf, shoff + shstrndx * shentsize + 0x18);
    for (std::uint16_t i = 0; i < shnum; ++i) {
        const std::uint64_t header = shoff + std::uint64_t{i} * shentsize;
        if (std::string(elf.c_str() + names + u32_at(elf, header)) == name) return header;
    }
    return 0;
}

std::string core_side() {
    return "this core is ABI " + std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor) + ", " +
           std::string(famspec::core_fingerprint());
}

// A refusal of one fixture: the stage and the whole message, which begins with the file.
struct Refusal {
    std::string fixture;
    std::string stage;
    std::string message;
};

std::vector<Refusal> refusals() {
    const auto file = [](const std::string& fixture) { return fixture_file(fixture).string() + ": "; };
    const auto unreadable = [&](const std::string& fixture, const std::string& what) {
        return Refusal{fixture, "register", file(fixture) + "refused: its tables cannot be read: " + what};
    };
    // The numbers of the corrupted ELF files, read from the files themselves.
    const std::string truncated = read_file(fixture_file("truncated_plugin"));
    const std::string segment = read_file(fixture_file("segment_past_eof"));
    const std::string section = read_file(fixture_file("section_past_eof"));
    REQUIRE(truncated.size() > 0x40);
    REQUIRE(segment.size() > 0x40);
    const std::uint64_t first_segment = u64_at(segment, 0x20);
    const std::uint64_t tables = section_header(section, ".famspec_tables");
    REQUIRE(tables != 0);
    const std::string abi = std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor);
    const std::string next_minor = std::to_string(famspec::kAbiMinor + 1);
    const std::string version(famspec::core_version());
    return {
        {"not_elf", "manifest", file("not_elf") + "not a readable plugin: not an ELF file"},
        {"no_table_section", "manifest",
         file("no_table_section") +
             "carries no .famspec_tables section: not a famspec plugin; build it with famspec_add_plugin()"},
        {"built_for_abi_4", "manifest",
         file("built_for_abi_4") +
             "is a plugin of ABI 4 or older (it carries .famspec_manifest and no .famspec_tables); this core reads "
             "ABI " +
             abi + ": rebuild it with famspec_add_plugin()"},
        {"truncated_plugin", "manifest",
         file("truncated_plugin") + "not a readable plugin: truncated ELF file: its section table at offset " +
             std::to_string(u64_at(truncated, 0x28)) + " lies past the end of the file (" +
             std::to_string(truncated.size()) + " bytes)"},
        {"segment_past_eof", "manifest",
         file("segment_past_eof") + "not a readable plugin: truncated ELF file: segment 0 (offset " +
             std::to_string(u64_at(segment, first_segment + 0x08)) + ", " + std::to_string(segment.size() * 4) +
             " bytes) lies past the end of the file (" + std::to_string(segment.size()) + " bytes)"},
        {"section_past_eof", "manifest",
         file("section_past_eof") + "not a readable plugin: truncated ELF file: the .famspec_tables section (offset " +
             std::to_string(section.size() + 4096) + ", " + std::to_string(u64_at(section, tables + 0x20)) +
             " bytes) lies past the end of the file (" + std::to_string(section.size()) + " bytes)"},
        {"table_section_writable", "manifest",
         file("table_section_writable") +
             "not a readable plugin: the .famspec_tables section is not read-only data (type 1, flags 0x3); build "
             "the plugin with famspec_add_plugin()"},
        {"wrong_machine", "compatibility",
         file("wrong_machine") +
             "built for another machine; the plugin is AArch64, ELF64, little-endian; this core is x86-64, ELF64, "
             "little-endian; rebuild it on this one"},
        {"abi_major_mismatch", "compatibility",
         file("abi_major_mismatch") + "has ABI major 99; the plugin is ABI 99." + std::to_string(famspec::kAbiMinor) +
             "; " + core_side() + "; rebuild it against famspec " + version},
        {"abi_minor_newer", "compatibility",
         file("abi_minor_newer") + "needs a newer core (ABI minor " + next_minor + "); the plugin is ABI " +
             std::to_string(famspec::kAbiMajor) + "." + next_minor + "; " + core_side() + "; use a famspec of ABI " +
             std::to_string(famspec::kAbiMajor) + "." + next_minor + " or newer"},
        {"bad_magic", "compatibility",
         file("bad_magic") + "its .famspec_tables section does not begin with famspec's table magic: not a famspec "
                             "plugin"},
        unreadable("text_outside_block", "a table row names a string or list outside its array"),
        unreadable("name_outside_block",
                   "the plugin's name, version, description or compiler lies outside its characters"),
        unreadable("not_utf8", "a string that is not UTF-8 (byte 51 of its strings)"),
        unreadable("nul_in_family_key", "a NUL byte at character 58 of its strings"),
        unreadable("unknown_kind", "a table row gives a kind its type does not have"),
        unreadable("block_past_section", "a table block of 4632 bytes in a section of 536"),
        {"shared_large_string", "register",
         file("shared_large_string") +
             "refused: its rows name their strings and lists so often that copying them would take more than 8 "
             "times its 99424-byte block"},
        {"bad_allowed_default", "register",
         file("bad_allowed_default") +
             "registration rejected: CP wrapper "
             "'hyper_parallel.models.bad_allowed_default.adapter.context_parallel.cp_wrapper' (family "
             "bad_allowed_default, CP wrapper 1) declares parameter 'backend' with a default that is not one of its "
             "allowed values"},
        {"misdeclared_keys", "register",
         file("misdeclared_keys") +
             "registration rejected: provider module 'hyper_parallel.models.other_family.adapter.replacements' "
             "(family misdeclared_keys): directory 'other_family' does not name family 'misdeclared_keys'; declare "
             "it with directory_alias() if the family lives there; factory "
             "'hyper_parallel.models.misdeclared_keys.adapter.conversion.module_replacement.replace_norm' and "
             "'hyper_parallel.models.misdeclared_keys.adapter.replacements.replace_norm' share the name "
             "'replace_norm' in family 'misdeclared_keys' (family misdeclared_keys, factory 1 and family "
             "misdeclared_keys, factory 2): a factory resolves under every provider module, so declare it once; "
             "factory 'hyper_parallel.models.misdeclared_keys.adapter.elsewhere.replace_other' (family "
             "misdeclared_keys, factory 3) is not in a provider module of family 'misdeclared_keys' "
             "(hyper_parallel.models.misdeclared_keys.adapter.replacements, "
             "hyper_parallel.models.misdeclared_keys.adapter.conversion.module_replacement); archetype "
             "'hyper_parallel.models.misdeclared_keys.adapter.expert_parallel.misdeclared_ep_compute_fn' (family "
             "misdeclared_keys, archetype 1) needs a target_class and a compute factory; directory alias 'shareddir' "
             "names both family 'dir_a' (family dir_a) and 'dir_b' "
             "(family dir_b); spelling 'sharedarch' names both family 'arch_a' (family arch_a) and 'arch_b' (family "
             "arch_b)"},
    };
}

}  // namespace

TEST_CASE("verify, list and summary name each refusal of the zoo by its file, stage and what is wrong") {
    for (const Refusal& refusal : refusals()) {
        CAPTURE(refusal.fixture);
        const json::object verified =
            run_json({"verify", "--json", "--plugin-path", fixture_dir(refusal.fixture)}, kFailed);
        const json::object& entry = entry_for(verified, fixture_file(refusal.fixture).filename().string());
        CHECK(text(entry, "status") == "error");
        CHECK(text(entry, "stage") == refusal.stage);
        CHECK(text(entry, "message") == refusal.message);
        CHECK_FALSE(entry.contains("signal"));

        const json::object listed = run_json({"list", "--json", "--plugin-path", fixture_dir(refusal.fixture)},
                                             kFailed);  // list runs every check of a load
        const json::object& row = entry_for(listed, fixture_file(refusal.fixture).filename().string());
        CHECK(text(row, "status") == "error");
        CHECK(text(row, "stage") == refusal.stage);
        CHECK(text(row, "message") == refusal.message);

        // A command that answers for the whole set (--strict reads every plugin) gives no answer, and says
        // why, first the plugin and its stage.
        const std::vector<std::string> summary_of_both = {"summary",
                                                          "--digest",
                                                          qwen_plan(),
                                                          "--plugin-path",
                                                          plugin_dir(),
                                                          "--plugin-path",
                                                          fixture_dir(refusal.fixture)};
        std::vector<std::string> strict = summary_of_both;
        strict.push_back("--strict");
        const ProcessResult summary = run_cli(strict);
        INFO(describe(summary));
        CHECK(summary.exit_code == kFailed);
        CHECK(summary.out.empty());
        CHECK(summary.err ==
              "famspec: error: plugin not loaded (" + refusal.stage + "): " + refusal.message + "\n" + kNoAnswer);
        // Without --strict the plan's own plugins answer: a refusal found only in the rows of a plugin the
        // plan does not touch is left to verify and list; every earlier refusal stops the answer as before.
        const ProcessResult plain = run_cli(summary_of_both);
        if (kRefusedInItsRowsOnly.contains(refusal.fixture)) {
            CHECK(plain.exit_code == kOk);
            CHECK(plain.out == kQwenDigest);
        } else {
            CHECK(plain.exit_code == kFailed);
            CHECK(plain.err == summary.err);
        }
    }
}

TEST_CASE("verify names both declaration sites of a factory declared twice in one plugin") {
    const std::string source = source_dir() + "/tests/plugins/duplicate_factory.cpp";
    const std::string message =
        fixture_file("duplicate_factory").string() +
        ": registration rejected: factory 'hyper_parallel.models.duplicate_factory.adapter.replacements.replace_norm' "
        "registered twice (" +
        source + ":11 and " + source + ":14)";
    const json::object report =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("duplicate_factory")}, kFailed);
    CHECK(outcome(report) == "error/register");
    CHECK(text(plugins_of(report)[0].as_object(), "message") == message);
    // list runs every check of a load: it refuses the plugin too.
    CHECK(outcome(run_json({"list", "--json", "--plugin-path", fixture_dir("duplicate_factory")}, kFailed)) ==
          "error/register");
    // --strict answers for the whole set: it reads the plugin, and refuses it.
    const ProcessResult summary = run_cli({"summary", "--digest", qwen_plan(), "--strict", "--plugin-path",
                                           plugin_dir(), "--plugin-path", fixture_dir("duplicate_factory")});
    CHECK(summary.exit_code == kFailed);
    CHECK(summary.err == "famspec: error: plugin not loaded (register): " + message + "\n" + kNoAnswer);
}

TEST_CASE("verify goes on past a plugin whose tables cannot be read: its neighbour loads") {
    const json::object report = run_json(
        {"verify", "--json", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("text_outside_block")},
        kFailed);
    CHECK(text(entry_for(report, "famspec_text_outside_block.so"), "stage") == "register");
    const json::object& neighbour = entry_for(report, "famspec_outside_block_neighbor.so");
    CHECK(text(neighbour, "status") == "ok");
    CHECK(neighbour.at("families") == json::array{"outside_block_neighbor"});
    std::size_t refused = 0;
    for (const auto& entry : plugins_of(report)) refused += entry.at("status") == "error" ? 1 : 0;
    CHECK(refused == 1);
}

// verify checks each file of a directory that may be part of a set (a family project builds its own
// plugin, not the catalogue): what a factory needs from another plugin is the set's to meet, and list,
// which loads the set, refuses it.
TEST_CASE("a factory whose component no loaded plugin registers is refused at validate, naming the component") {
    const json::object verified =
        run_json({"verify", "--json", "--plugin-path", fixture_dir("text_outside_block")}, kFailed);
    CHECK(text(entry_for(verified, "famspec_outside_block_neighbor.so"), "status") == "ok");
    const json::object report =
        run_json({"list", "--json", "--plugin-path", fixture_dir("text_outside_block")}, kFailed);
    const json::object& neighbour = entry_for(report, "famspec_outside_block_neighbor.so");
    CHECK(text(neighbour, "stage") == "validate");
    CHECK(text(neighbour, "message") ==
          fixture_dir("text_outside_block") +
              "/famspec_outside_block_neighbor.so: factory "
              "hyper_parallel.models.outside_block_neighbor.adapter.replacements.replace_norm constructs "
              "component hyper_parallel.components.modules.RMSNorm, which no loaded plugin registers; put the plugin "
              "that registers it (for the generic hyper_parallel.components catalogue, the shipped 'components' "
              "plugin) on the plugin path");
}

TEST_CASE("verify reports the same family in two plugins on both, each naming the other") {
    const json::object report = run_json(
        {"verify", "--json", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("same_family_two_plugins")},
        kFailed);
    const std::string dir = fixture_dir("same_family_two_plugins");
    const auto message = [&](const std::string& self, const std::string& other) {
        const std::string by = "is also registered by plugin '" + other + "' (" + dir + "/famspec_" + other + ".so)";
        return dir + "/famspec_" + self +
               ".so: duplicate registration: factory "
               "'hyper_parallel.models.zoo_twin.adapter.replacements.replace_norm' " +
               by + "; family 'zoo_twin' " + by + "; family spelling 'zootwin' " + by +
               "; neither plugin's declarations are used: remove one of them from the plugin path";
    };
    for (const auto& [self, other] :
         {std::pair<std::string, std::string>{"family_twin_a", "family_twin_b"}, {"family_twin_b", "family_twin_a"}}) {
        CAPTURE(self);
        const json::object& entry = entry_for(report, "famspec_" + self + ".so");
        CHECK(text(entry, "status") == "error");
        CHECK(text(entry, "stage") == "validate");
        CHECK(text(entry, "message") == message(self, other));
    }
}

TEST_CASE("a plugin that claims a shipped family is refused at validate, and so is the shipped one") {
    const TempDir dir;
    fs::copy_file(fixture_file("impostor_qwen3_moe"), dir / "famspec_impostor_qwen3_moe.so");
    for (const auto& entry : fs::directory_iterator(plugin_dir()))
        fs::copy_file(entry.path(), dir / entry.path().filename());
    const std::string impostor = (dir / "famspec_impostor_qwen3_moe.so").string();
    const std::string shipped = (dir / "famspec_qwen3_moe.so").string();
    const json::object report = run_json({"verify", "--json", "--plugin-path", dir.path().string()}, kFailed);
    const auto message = [](const std::string& self, const std::string& other_name, const std::string& other) {
        const std::string by = "is also registered by plugin '" + other_name + "' (" + other + ")";
        return self + ": duplicate registration: family 'qwen3_moe' " + by + "; family spelling 'qwen3moe' " + by +
               "; neither plugin's declarations are used: remove one of them from the plugin path";
    };
    const json::object& refused = entry_for(report, "famspec_impostor_qwen3_moe.so");
    CHECK(text(refused, "stage") == "validate");
    CHECK(text(refused, "message") == message(impostor, "qwen3_moe", shipped));
    const json::object& original = entry_for(report, "famspec_qwen3_moe.so");
    CHECK(text(original, "stage") == "validate");
    CHECK(text(original, "message") == message(shipped, "impostor_qwen3_moe", impostor));
    // Nobody answers for qwen3_moe then.
    const ProcessResult shown =
        run_cli({"show", "qwen3_moe", "--allow-partial", "--quiet", "--plugin-path", dir.path().string()});
    CHECK(shown.exit_code == kFailed);
    CHECK(shown.err.starts_with("famspec: unknown family 'qwen3_moe'"));
}

TEST_CASE("a plugin refused before validate claims nothing: its neighbour with the same family loads") {
    const json::object report = run_json(
        {"verify", "--json", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("claim_of_refused_plugin")},
        kFailed);
    const json::object& refused = entry_for(report, "famspec_claim_a_refused.so");
    CHECK(text(refused, "stage") == "compatibility");
    CHECK(text(refused, "message")
              .starts_with(fixture_dir("claim_of_refused_plugin") + "/famspec_claim_a_refused.so: has ABI major 99; "));
    const json::object& loaded = entry_for(report, "famspec_claim_b_loaded.so");
    CHECK(text(loaded, "status") == "ok");
    CHECK(loaded.at("families") == json::array{"zoo_claimed"});
    const json::object shown = run_json({"show", "zoo_claimed", "--json", "--allow-partial", "--plugin-path",
                                         plugin_dir(), "--plugin-path", fixture_dir("claim_of_refused_plugin")},
                                        kOk);
    CHECK(text(shown, "plugin") == "claim_b_loaded");
}

TEST_CASE("plugins a dynamic linker would refuse, or built with other C++ flags, load: verify says ok, with no note") {
    for (const std::string fixture : {"old_cxx11_abi", "debug_containers", "sanitized", "unresolved_symbol"}) {
        CAPTURE(fixture);
        const ProcessResult verified =
            run_cli({"verify", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir(fixture)});
        INFO(describe(verified));
        CHECK(verified.exit_code == kOk);
        CHECK(verified.err ==
              "plugin search path (--plugin-path): " + plugin_dir() + ":" + fixture_dir(fixture) + "\n");
        const json::object report =
            run_json({"verify", "--json", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir(fixture)}, kOk);
        const json::object& entry = entry_for(report, "famspec_" + fixture + ".so");
        CHECK(text(entry, "status") == "ok");
        CHECK(text(entry, "stage") == "null");
        CHECK(text(entry, "name") == fixture);
        CHECK(text(entry, "abi") == std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor));
        CHECK(entry.at("families") == json::array{json::value(fixture)});
        CHECK(entry.at("notes").as_array().empty());

        // Its family is answered from what the file declares.
        const json::object shown = run_json(
            {"show", fixture, "--json", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir(fixture)}, kOk);
        CHECK(text(shown, "plugin") == fixture);
        CHECK(text(shown, "architecture") == fixture + "ForCausalLM");

        const ProcessResult info = run_cli({"info", fixture_file(fixture).string()});
        CHECK(info.exit_code == kOk);
        CHECK(info.out.find("  fingerprint:  " + std::string(famspec::core_fingerprint()) + "\n") != std::string::npos);
    }
}

TEST_CASE("a plugin that declares nothing loads, and verify warns about it") {
    const std::string plugin = fixture_file("registers_nothing").string();
    const std::string warning =
        "plugin 'registers_nothing' registers nothing: it declares no family, factory, archetype, CP wrapper or "
        "component";
    const ProcessResult text_run = run_cli({"verify", "--plugin-path", fixture_dir("registers_nothing")});
    CHECK(text_run.exit_code == kOk);
    CHECK(text_run.err == "famspec: warning: " + plugin + ": " + warning +
                              "\nplugin search path (--plugin-path): " + fixture_dir("registers_nothing") + "\n");
    const json::object report = run_json({"verify", "--json", "--plugin-path", fixture_dir("registers_nothing")}, kOk);
    const json::object& entry = plugins_of(report)[0].as_object();
    CHECK(text(entry, "status") == "ok");
    CHECK(entry.at("warnings").as_array() == json::array{json::value(warning)});
    // --quiet hides the warning, not the answer.
    const ProcessResult quiet = run_cli({"verify", "--quiet", "--plugin-path", fixture_dir("registers_nothing")});
    CHECK(quiet.exit_code == kOk);
    CHECK(quiet.err.empty());
    CHECK(quiet.out == text_run.out);
}

TEST_CASE("verify has no --timeout: nothing in a plugin file can make it wait") {
    const ProcessResult result = run_cli({"verify", "--timeout", "1"});
    CHECK(result.exit_code == kUsage);
    CHECK(result.out.empty());
    CHECK(result.err ==
          "famspec: The following arguments were not expected: 1 --timeout (famspec verify --help shows the usage)\n");
    const ProcessResult help = run_cli({"verify", "--help"});
    CHECK(help.exit_code == kOk);
    CHECK(help.out.starts_with("Read and check every plugin file whole, naming every refusal\n"));
    CHECK(help.out.find("--timeout") == std::string::npos);
}

TEST_CASE("verify reports every plugin of a mixed search path, in order, and fails for the refused ones only") {
    const json::object report = run_json({"verify", "--json", "--plugin-path", fixture_dir("zoo_good"), "--plugin-path",
                                          fixture_dir("abi_major_mismatch"), "--plugin-path",
                                          fixture_dir("old_cxx11_abi"), "--plugin-path", plugin_dir()},
                                         kFailed);
    const auto& plugins = plugins_of(report);
    REQUIRE(plugins.size() >= 4);
    CHECK(text(plugins[0].as_object(), "path") == fixture_file("zoo_good").string());
    CHECK(text(plugins[0].as_object(), "status") == "ok");
    CHECK(text(plugins[1].as_object(), "path") == fixture_file("abi_major_mismatch").string());
    CHECK(text(plugins[1].as_object(), "stage") == "compatibility");
    CHECK(text(plugins[2].as_object(), "path") == fixture_file("old_cxx11_abi").string());
    CHECK(text(plugins[2].as_object(), "status") == "ok");
    for (std::size_t i = 3; i < plugins.size(); ++i) CHECK(text(plugins[i].as_object(), "status") == "ok");
}
