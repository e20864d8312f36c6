// The loader's contract through the public API: each fixture of the bad-plugin zoo stops at its
// exact stage, search precedence and order are deterministic, and a frozen registry is safe to
// share and to outlive.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/search_path.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::PluginRecord;
using famspec::PluginStage;
using famspec::Registry;
using famspec::test::fixture_dir;
using famspec::test::fixture_file;
using famspec::test::reach_one_file_four_ways;
using famspec::test::TempDir;

namespace {

std::shared_ptr<const Registry> load(std::vector<fs::path> directories, std::vector<fs::path> files = {}) {
    famspec::LoadOptions options;
    options.directories = std::move(directories);
    options.files = std::move(files);
    return famspec::load_plugins(options);
}

std::vector<PluginRecord> inspect(std::vector<fs::path> directories) {
    famspec::LoadOptions options;
    options.directories = std::move(directories);
    return famspec::inspect_plugins(options);
}

std::string stage_of(const PluginRecord& record) {
    return record.error ? std::string(famspec::name_of(record.error->stage)) : "ok";
}

const PluginRecord& record_named(std::span<const PluginRecord> records, const std::string& file_name) {
    const auto it = std::find_if(records.begin(), records.end(),
                                 [&](const PluginRecord& r) { return fs::path(r.path).filename() == file_name; });
    REQUIRE_MESSAGE(it != records.end(), "no record for " << file_name);
    return *it;
}

// The single fixture in its directory, through the full load.
PluginRecord load_one(const std::string& fixture) {
    const auto registry = load({fixture_dir(fixture)});
    REQUIRE(registry->plugins().size() == 1);
    return registry->plugins()[0];
}

// The single fixture in its directory, through the manifest-only inspection.
PluginRecord inspect_one(const std::string& fixture) {
    const auto records = inspect({fixture_dir(fixture)});
    REQUIRE(records.size() == 1);
    return records[0];
}

std::size_t count(const std::string& text, const std::string& fragment) {
    std::size_t n = 0;
    for (std::size_t at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1)) ++n;
    return n;
}

std::string core_abi() { return std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor); }

std::vector<std::string> paths_of(std::span<const PluginRecord> records) {
    std::vector<std::string> out;
    for (const auto& record : records) out.push_back(record.path);
    return out;
}

}  // namespace

// ---- manifest stage -------------------------------------------------------------------------------

TEST_CASE("a text file named like a plugin fails at the manifest stage") {
    for (const PluginRecord& record : {load_one("not_elf"), inspect_one("not_elf")}) {
        CHECK(stage_of(record) == "manifest");
        CHECK(record.path == fixture_file("not_elf").string());
        CHECK(record.error->message.find(fixture_file("not_elf").string()) == 0);
        CHECK(record.error->message.find("not an ELF file") != std::string::npos);
    }
}

// A good plugin cut after its ELF header: the section table lies past the end of the file.
fs::path make_truncated(const TempDir& dir) {
    const fs::path truncated = dir / "famspec_truncated.so";
    fs::copy_file(fixture_file("zoo_good"), truncated);
    fs::resize_file(truncated, 400);
    return truncated;
}

TEST_CASE("a truncated ELF file fails at the manifest stage") {
    const TempDir dir;
    const fs::path truncated = make_truncated(dir);
    for (const PluginRecord& record : {load({dir.path()})->plugins()[0], inspect({dir.path()}).at(0)}) {
        CHECK(stage_of(record) == "manifest");
        CHECK(record.path == truncated.string());
        CHECK(record.error->message.find(truncated.string() + ": ") == 0);
        CHECK(record.manifest == nullptr);
    }
}

// libelf reads a truncated section table as an empty one; the report must still say "truncated"
// rather than advise a rebuild for a missing manifest.
TEST_CASE("a truncated ELF file is reported as truncated") {
    const TempDir dir;
    make_truncated(dir);
    const PluginRecord record = inspect({dir.path()}).at(0);
    REQUIRE(stage_of(record) == "manifest");
    CHECK(record.error->message.find("truncated") != std::string::npos);
    CHECK(record.error->message.find("carries no .famspec_tables section") == std::string::npos);
}

// Each refused file: its stage and whole message, the same through a load and an inspection.
void check_refusal(const std::string& fixture, const std::string& stage, const std::string& after_path) {
    CAPTURE(fixture);
    for (const PluginRecord& record : {load_one(fixture), inspect_one(fixture)}) {
        REQUIRE(record.error);
        CHECK(stage_of(record) == stage);
        CHECK(record.error->message == fixture_file(fixture).string() + ": " + after_path);
        CHECK(record.manifest == nullptr);
    }
}

TEST_CASE("an ordinary shared library, with no table section, fails at the manifest stage") {
    check_refusal("no_table_section", "manifest",
                  "carries no .famspec_tables section: not a famspec plugin; build it with famspec_add_plugin()");
}

TEST_CASE("a plugin of ABI 4 fails at the manifest stage, named as such with both ABIs") {
    check_refusal("built_for_abi_4", "manifest",
                  "is a plugin of ABI 4 or older (it carries .famspec_manifest and no .famspec_tables); this core "
                  "reads ABI " +
                      core_abi() + ": rebuild it with famspec_add_plugin()");
}

TEST_CASE("ELF files whose structure lies past their end, or whose tables are writable, fail at the manifest stage") {
    const auto size = [](const std::string& fixture) { return std::to_string(fs::file_size(fixture_file(fixture))); };
    const std::string truncated = load_one("truncated_plugin").error->message;
    CHECK(truncated.find(": not a readable plugin: truncated ELF file: its section table at offset ") !=
          std::string::npos);
    CHECK(truncated.ends_with(" lies past the end of the file (" + size("truncated_plugin") + " bytes)"));
    const std::string segment = load_one("segment_past_eof").error->message;
    CHECK(segment.find(": not a readable plugin: truncated ELF file: segment 0 (offset 0, ") != std::string::npos);
    CHECK(segment.ends_with(" bytes) lies past the end of the file (" + size("segment_past_eof") + " bytes)"));
    CHECK(stage_of(load_one("segment_past_eof")) == "manifest");
    const std::string section = load_one("section_past_eof").error->message;
    CHECK(section.find(": not a readable plugin: truncated ELF file: the .famspec_tables section (offset ") !=
          std::string::npos);
    CHECK(section.ends_with(" bytes) lies past the end of the file (" + size("section_past_eof") + " bytes)"));
    check_refusal("table_section_writable", "manifest",
                  "not a readable plugin: the .famspec_tables section is not read-only data (type 1, flags 0x3); "
                  "build the plugin with famspec_add_plugin()");
}

TEST_CASE("a plugin for another machine fails at the compatibility stage and names both sides") {
    check_refusal("wrong_machine", "compatibility",
                  "built for another machine; the plugin is AArch64, ELF64, little-endian; this core is x86-64, "
                  "ELF64, little-endian; rebuild it on this one");
}

TEST_CASE("an ABI major mismatch fails at the compatibility stage and names both sides") {
    const std::string core = "ABI " + core_abi() + ", " + std::string(famspec::core_fingerprint());
    check_refusal("abi_major_mismatch", "compatibility",
                  "has ABI major 99; the plugin is ABI 99.1; this core is " + core + "; rebuild it against famspec " +
                      std::string(famspec::core_version()));
    const PluginRecord record = load_one("abi_major_mismatch");
    CHECK(record.error->expected == core);
    CHECK(record.error->found == "ABI 99.1");
}

TEST_CASE("a plugin built for a newer ABI minor fails at the compatibility stage") {
    const std::string newer = std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor + 1);
    check_refusal("abi_minor_newer", "compatibility",
                  "needs a newer core (ABI minor " + std::to_string(famspec::kAbiMinor + 1) + "); the plugin is ABI " +
                      newer + "; this core is ABI " + core_abi() + ", " + std::string(famspec::core_fingerprint()) +
                      "; use a famspec of ABI " + newer + " or newer");
}

TEST_CASE("a table section without famspec's magic fails at the compatibility stage") {
    check_refusal("bad_magic", "compatibility",
                  "its .famspec_tables section does not begin with famspec's table magic: not a famspec plugin");
}

TEST_CASE("tables that cannot be read fail at the register stage, each saying why") {
    const std::string cannot = "refused: its tables cannot be read: ";
    check_refusal("name_outside_block", "register",
                  cannot + "the plugin's name, version, description or compiler lies outside its characters");
    check_refusal("not_utf8", "register", cannot + "a string that is not UTF-8 (byte 51 of its strings)");
    check_refusal("nul_in_family_key", "register", cannot + "a NUL byte at character 58 of its strings");
    check_refusal("unknown_kind", "register", cannot + "a table row gives a kind its type does not have");
    check_refusal("block_past_section", "register", cannot + "a table block of 4632 bytes in a section of 536");
}

TEST_CASE("plugins a dynamic linker would refuse or run, and builds of another C++ ABI, load: they are data") {
    for (const char* fixture :
         {"old_cxx11_abi", "debug_containers", "sanitized", "unresolved_symbol", "code_never_runs"}) {
        CAPTURE(fixture);
        const auto registry = load({fixture_dir(fixture)}, {famspec::test::shipped_components()});
        REQUIRE(registry->plugins().size() == 2);
        const PluginRecord& record = registry->plugins()[0];
        CHECK_MESSAGE(record.ok(), (record.error ? record.error->message : std::string()));
        CHECK(registry->find_family(fixture) != nullptr);
    }
}

// ---- register and validate --------------------------------------------------------------------------

TEST_CASE("a factory whose component no loaded plugin registers is refused at the validate stage") {
    const std::string plugin = fixture_file("hand_written").string();
    const PluginRecord alone = load_one("hand_written");
    REQUIRE(stage_of(alone) == "validate");
    CHECK(alone.error->message ==
          plugin +
              ": factory hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm constructs "
              "component hyper_parallel.components.modules.RMSNorm, which no loaded plugin registers; put the "
              "plugin that registers it (for the generic hyper_parallel.components catalogue, the shipped "
              "'components' plugin) on the plugin path");
    // With the catalogue on the path it loads, whatever the order.
    const fs::path components = famspec::test::shipped_components();
    for (const auto& files : {std::vector<fs::path>{components, plugin}, std::vector<fs::path>{plugin, components}}) {
        const auto registry = load({}, files);
        CHECK(registry->all_ok());
        CHECK(registry->find_factory("hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm") !=
              nullptr);
    }
}

TEST_CASE("tables that name a string outside their block are refused whole and the directory still loads") {
    const auto registry = load({fixture_dir("text_outside_block")}, {famspec::test::shipped_components()});
    REQUIRE(registry->plugins().size() == 3);
    const PluginRecord& refused = record_named(registry->plugins(), "famspec_text_outside_block.so");
    const PluginRecord& neighbour = record_named(registry->plugins(), "famspec_outside_block_neighbor.so");
    REQUIRE(stage_of(refused) == "register");
    CHECK(refused.error->message == fixture_file("text_outside_block").string() +
                                        ": refused: its tables cannot be read: a table row names a string or list "
                                        "outside its array");
    CHECK(neighbour.ok());
    // Nothing of the refused block is registered, not even the family its first row declares.
    CHECK(registry->find_family("text_outside_block") == nullptr);
    CHECK(registry->find_family("outside_block_neighbor") != nullptr);
    CHECK(registry->find_factory("hyper_parallel.models.outside_block_neighbor.adapter.replacements.replace_norm") !=
          nullptr);
}

TEST_CASE("a factory declared twice in one plugin fails at the register stage with both sites") {
    const PluginRecord record = load_one("duplicate_factory");
    REQUIRE(stage_of(record) == "register");
    const std::string& message = record.error->message;
    CHECK(message.find("factory 'hyper_parallel.models.duplicate_factory.adapter.replacements.replace_norm' "
                       "registered twice (") != std::string::npos);
    REQUIRE(count(message, "duplicate_factory.cpp:") == 2);
    const std::size_t first = message.find("duplicate_factory.cpp:");
    const std::size_t second = message.find("duplicate_factory.cpp:", first + 1);
    CHECK(message.substr(first, message.find(' ', first) - first) !=
          message.substr(second, message.find(')', second) - second));
}

TEST_CASE("an option whose default is not one of its allowed values fails at the register stage") {
    const PluginRecord record = load_one("bad_allowed_default");
    REQUIRE(stage_of(record) == "register");
    CHECK(record.error->message.find("declares parameter 'backend' with a default that is not one of its allowed "
                                     "values") != std::string::npos);
    CHECK(record.error->message.find("bad_allowed_default.adapter.context_parallel.cp_wrapper") != std::string::npos);
}

TEST_CASE("misdeclared provider modules, family keys and an archetype fail at the register stage, each named") {
    const PluginRecord record = load_one("misdeclared_keys");
    REQUIRE(stage_of(record) == "register");
    const std::string& message = record.error->message;
    CAPTURE(message);
    const std::string adapter = "hyper_parallel.models.misdeclared_keys.adapter.";
    for (const std::string& expected : {
             "factory '" + adapter + "conversion.module_replacement.replace_norm' and '" + adapter +
                 "replacements.replace_norm' share the name 'replace_norm' in family 'misdeclared_keys'",
             "factory '" + adapter + "elsewhere.replace_other' (",
             ") is not in a provider module of family 'misdeclared_keys' (" + adapter + "replacements, " + adapter +
                 "conversion.module_replacement)",
             std::string("provider module 'hyper_parallel.models.other_family.adapter.replacements' (family "
                         "misdeclared_keys): directory 'other_family' does not name family 'misdeclared_keys'"),
             std::string("directory alias 'shareddir' names both family 'dir_a' ("),
             std::string("spelling 'sharedarch' names both family 'arch_a' ("),
             "archetype '" + adapter +
                 "expert_parallel.misdeclared_ep_compute_fn' (family misdeclared_keys, "
                 "archetype 1) needs a target_class and a compute factory",
         }) {
        CHECK_MESSAGE(message.find(expected) != std::string::npos, expected);
    }
}

// Whoever sorts first, neither claim is used: the answer must not depend on file names.
TEST_CASE("the same family in two plugins fails both at the validate stage, each naming the other") {
    const std::string a = (fs::path(fixture_dir("same_family_two_plugins")) / "famspec_family_twin_a.so").string();
    const std::string b = (fs::path(fixture_dir("same_family_two_plugins")) / "famspec_family_twin_b.so").string();
    const auto registry = load({fixture_dir("same_family_two_plugins")});
    const auto records = inspect({fixture_dir("same_family_two_plugins")});
    for (std::span<const PluginRecord> list : {registry->plugins(), std::span<const PluginRecord>(records)}) {
        REQUIRE(list.size() == 2);
        CHECK(list[0].path == a);
        CHECK(list[1].path == b);
        REQUIRE(stage_of(list[0]) == "validate");
        REQUIRE(stage_of(list[1]) == "validate");
        CHECK(list[0].error->message.find(a + ": duplicate registration: ") == 0);
        CHECK(list[0].error->message.find("family 'zoo_twin' is also registered by plugin 'family_twin_b' (" + b +
                                          ")") != std::string::npos);
        CHECK(list[1].error->message.find("family 'zoo_twin' is also registered by plugin 'family_twin_a' (" + a +
                                          ")") != std::string::npos);
        CHECK(list[1].error->message.find("neither plugin's declarations are used") != std::string::npos);
    }
    CHECK(registry->find_family("zoo_twin") == nullptr);
    CHECK(registry->families().empty());
    CHECK(registry->factories().empty());
    CHECK_FALSE(registry->all_ok());
}

TEST_CASE("a plugin refused at load claims nothing") {
    const auto registry = load({fixture_dir("claim_of_refused_plugin")}, {famspec::test::shipped_components()});
    REQUIRE(registry->plugins().size() == 3);
    CHECK(stage_of(record_named(registry->plugins(), "famspec_claim_a_refused.so")) == "compatibility");
    CHECK(record_named(registry->plugins(), "famspec_claim_b_loaded.so").ok());
    const auto* family = registry->find_family("zoo_claimed");
    REQUIRE(family != nullptr);
    CHECK(family->plugin == "claim_b_loaded");
}

// ---- find stage and search path ------------------------------------------------------------------

TEST_CASE("a missing plugin directory fails at the find stage") {
    const TempDir dir;
    const fs::path missing = dir / "no-such-directory";
    for (const PluginRecord& record : {load({missing})->plugins()[0], inspect({missing}).at(0)}) {
        CHECK(stage_of(record) == "find");
        CHECK(record.path == missing.string());
        CHECK(record.error->message.find(missing.string() + ": ") == 0);
    }
}

TEST_CASE("a missing explicit plugin file fails at the find stage") {
    const TempDir dir;
    const auto registry = load({}, {dir / "famspec_absent.so"});
    REQUIRE(registry->plugins().size() == 1);
    CHECK(stage_of(registry->plugins()[0]) == "find");
}

TEST_CASE("search path precedence is flag then environment then default") {
    const fs::path fallback = "/opt/famspec/lib/famspec/plugins";
    SUBCASE("explicit paths win and are the only ones searched") {
        const auto search = famspec::plugin_search_path({"/flag/one", "/flag/two"}, "/env/dir", fallback);
        CHECK(search.origin == famspec::SearchPath::Origin::flag);
        CHECK(search.directories == std::vector<fs::path>{"/flag/one", "/flag/two"});
        CHECK(search.errors.empty());
    }
    SUBCASE("the environment is used when no path is given, split on colons") {
        const auto search = famspec::plugin_search_path({}, "/env/one::/env/two/", fallback);
        CHECK(search.origin == famspec::SearchPath::Origin::environment);
        CHECK(search.directories == std::vector<fs::path>{"/env/one", "/env/two/"});
        CHECK(search.errors.empty());
    }
    SUBCASE("the default directory is used when neither is set") {
        const auto search = famspec::plugin_search_path({}, std::nullopt, fallback);
        CHECK(search.origin == famspec::SearchPath::Origin::default_directory);
        CHECK(search.directories == std::vector<fs::path>{fallback});
    }
    SUBCASE("relative entries are rejected at the find stage, from the flag and from the environment") {
        for (const auto& search : {famspec::plugin_search_path({"relative/dir", "/abs"}, std::nullopt, fallback),
                                   famspec::plugin_search_path({}, "relative/dir:/abs", fallback)}) {
            CHECK(search.directories == std::vector<fs::path>{"/abs"});
            REQUIRE(search.errors.size() == 1);
            CHECK(search.errors[0].stage == PluginStage::find);
            CHECK(search.errors[0].path == "relative/dir");
            CHECK(search.errors[0].message.find("never resolved against the working directory") != std::string::npos);
        }
    }
    SUBCASE("the default directory is famspec/plugins next to the famspec library, whatever the program") {
        // This test program lives in build/bin, the library in build/lib: the library is the anchor.
        CHECK(famspec::default_plugin_directory() == fs::canonical(famspec::test::plugin_dir()));
    }
}

TEST_CASE("a relative plugin path is never resolved against the working directory") {
    // This relative path does name the good fixture's directory from here; it must still be refused.
    const std::string relative = fs::relative(fixture_dir("zoo_good"), fs::current_path()).string();
    REQUIRE(fs::exists(fs::current_path() / relative / "famspec_zoo_good.so"));
    const auto search = famspec::plugin_search_path({relative}, std::nullopt, fixture_dir("zoo_good"));
    CHECK(search.directories.empty());
    const auto registry = famspec::load_plugins(famspec::load_options_for(search));
    REQUIRE(registry->plugins().size() == 1);
    CHECK(stage_of(registry->plugins()[0]) == "find");
    CHECK(registry->plugins()[0].path == relative);
    CHECK(registry->families().empty());
}

// ---- identity and order -------------------------------------------------------------------------------

TEST_CASE("one file reached through a symlink a hardlink and a copy is loaded once") {
    const TempDir dir;
    reach_one_file_four_ways(dir, fixture_file("zoo_good"));
    const std::vector<std::string> all = {(dir / "copy.so").string(), (dir / "hard.so").string(),
                                          (dir / "link.so").string(), (dir / "orig.so").string()};

    const auto registry = load({dir.path()});
    REQUIRE(registry->plugins().size() == 1);
    const PluginRecord& record = registry->plugins()[0];
    CHECK(record.ok());
    CHECK(record.path == all[0]);
    CHECK(record.paths == all);
    CHECK_FALSE(record.build_id.empty());
    CHECK(registry->families().size() == 1);

    const auto records = inspect({dir.path()});
    REQUIRE(records.size() == 1);
    CHECK(records[0].ok());
    CHECK(records[0].paths == all);
}

// A directory given twice (e.g. on the flag and again with a trailing slash) is searched twice; the
// one file it holds must still list its path once.
TEST_CASE("a directory searched twice lists each path once") {
    const fs::path dir = fixture_dir("zoo_good");
    const auto registry = load({dir, dir / ""});
    REQUIRE(registry->plugins().size() == 1);
    CHECK(registry->plugins()[0].ok());
    CHECK(registry->plugins()[0].paths == std::vector<std::string>{fixture_file("zoo_good").string()});
}

TEST_CASE("an empty FAMSPEC_PLUGIN_PATH counts as unset") {
    const auto search = famspec::plugin_search_path({}, std::string(""), "/opt/famspec/lib/famspec/plugins");
    CHECK(search.origin == famspec::SearchPath::Origin::default_directory);
    CHECK(search.directories == std::vector<fs::path>{"/opt/famspec/lib/famspec/plugins"});
    CHECK(famspec::plugin_search_path({}, std::string("::"), "/d").origin ==
          famspec::SearchPath::Origin::default_directory);
    const auto set = famspec::plugin_search_path({}, std::string(":/a::/b:"), "/d");
    CHECK(set.origin == famspec::SearchPath::Origin::environment);
    CHECK(set.directories == std::vector<fs::path>{"/a", "/b"});
}

TEST_CASE("candidates are ordered by search path then by byte-wise file name") {
    const TempDir first;
    const TempDir second;
    fs::copy_file(fixture_file("zoo_good"), first / "B.so");
    fs::copy_file(fixture_file("no_table_section"), first / "_x.so");
    fs::copy_file(fixture_file("not_elf"), first / "a.so");
    fs::copy_file(fixture_file("zoo_good"), first / "README.txt");  // not a candidate: wrong extension
    fs::create_directory(first / "dir.so");                         // refused at find: not a file
    fs::copy_file(fixture_file("abi_major_mismatch"), second / "A.so");
    // What cannot be a candidate is reported as each directory is listed, before the candidates.
    const std::vector<std::string> expected = {(first / "dir.so").string(), (first / "B.so").string(),
                                               (first / "_x.so").string(), (first / "a.so").string(),
                                               (second / "A.so").string()};

    CHECK(paths_of(inspect({first.path(), second.path()})) == expected);
    const auto registry = load({first.path(), second.path()});
    CHECK(paths_of(registry->plugins()) == expected);
    std::vector<std::string> stages;
    for (const auto& record : registry->plugins()) stages.push_back(stage_of(record));
    CHECK(stages == std::vector<std::string>{"find", "ok", "manifest", "manifest", "compatibility"});

    // Explicit files come after every directory.
    const auto with_file = load({second.path()}, {first / "B.so"});
    CHECK(paths_of(with_file->plugins()) == std::vector<std::string>{expected[4], expected[1]});
}

TEST_CASE("stages are announced stage by stage across the candidates, and a failure is the last stage entered") {
    std::vector<std::pair<std::string, std::string>> seen;
    famspec::LoadOptions options;
    options.directories = {fixture_dir("zoo_good"), fixture_dir("abi_major_mismatch"), fixture_dir("not_elf")};
    const famspec::StageCallback on_stage = [&](const std::string& path, PluginStage stage) {
        seen.emplace_back(fs::path(path).filename().string(), std::string(famspec::name_of(stage)));
    };
    std::vector<std::string> errors;
    options.log = [&](famspec::LogLevel level, std::string_view text) {
        if (level == famspec::LogLevel::error) errors.emplace_back(text);
    };
    const auto registry = famspec::load_plugins(options, on_stage);
    // Each file is read and its claims taken before any plugin's declarations are copied.
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"famspec_zoo_good.so", "manifest"},
        {"famspec_zoo_good.so", "compatibility"},
        {"famspec_zoo_good.so", "register"},
        {"famspec_abi_major_mismatch.so", "manifest"},
        {"famspec_abi_major_mismatch.so", "compatibility"},
        {"famspec_not_elf.so", "manifest"},
    };
    CHECK(seen == expected);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].find(fixture_file("abi_major_mismatch").string()) == 0);
    CHECK(errors[1].find(fixture_file("not_elf").string()) == 0);
}

// ---- the frozen registry ---------------------------------------------------------------------------

TEST_CASE("the shipped plugin directory loads cleanly") {
    const auto registry = load({famspec::test::plugin_dir()});
    REQUIRE_FALSE(registry->plugins().empty());
    for (const auto& record : registry->plugins()) {
        CHECK_MESSAGE(record.ok(), record.path << ": " << (record.error ? record.error->message : ""));
        CHECK(record.manifest != nullptr);
    }
    CHECK(registry->all_ok());
    CHECK_FALSE(registry->families().empty());
    const auto inspected = inspect({famspec::test::plugin_dir()});
    CHECK(paths_of(inspected) == paths_of(registry->plugins()));
    CHECK(std::all_of(inspected.begin(), inspected.end(), [](const PluginRecord& r) { return r.ok(); }));
}

TEST_CASE("objects handed out keep working after the registry is gone") {
    auto registry = load({fixture_dir("zoo_good")});
    REQUIRE(registry->all_ok());
    const auto* factory =
        registry->find_factory("hyper_parallel.models.zoo_good.adapter.replacements.replace_zoo_norm");
    REQUIRE(factory != nullptr);
    const auto* family = registry->find_family("ZooGoodForCausalLM");
    REQUIRE(family != nullptr);
    REQUIRE(registry->components().size() == 1);
    REQUIRE(registry->archetypes().size() == 1);
    std::shared_ptr<const famspec::ReplacementFactory> kept_factory = factory->object;
    std::shared_ptr<const famspec::FamilyAdapter> kept_family = family->object;
    std::shared_ptr<const famspec::Component> kept_component = registry->components()[0].object;
    std::shared_ptr<const famspec::MoeArchetype> kept_archetype = registry->archetypes()[0].object;
    registry.reset();

    CHECK(kept_factory->family == "zoo_good");
    CHECK(kept_factory->target == "hyper_parallel.models.zoo_good.adapter.replacements.replace_zoo_norm");
    REQUIRE(kept_factory->construction.has_value());
    CHECK(kept_factory->construction->component == "ZooNorm");
    CHECK(kept_factory->parameters.size() == 4);
    CHECK(kept_family->model_type == "zoo_good");
    CHECK(kept_family->architecture == "ZooGoodForCausalLM");
    REQUIRE(kept_family->aliases.size() == 1);
    CHECK(kept_family->aliases[0] == "zoo-good-chat");
    CHECK(kept_component->defining_module == "zoo.components.norm");
    CHECK(kept_component->parameters.size() == 2);
    CHECK(kept_archetype->router_kind == famspec::MoeRouter::softmax_topk);
}
