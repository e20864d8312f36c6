// Replays the corpora of the four harnesses beyond the parsers (tests/fuzz/corpus/{resolution,option,
// loader,tables}/) through the code the libFuzzer harnesses run, each file to its expected outcome,
// with every contract of harness_results.hpp checked on the way.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "corpus_replay.hpp"
#include "famspec/plugin_loader.hpp"
#include "harness_results.hpp"
#include "process.hpp"

using famspec::fuzz::Expected;
using famspec::fuzz::replay;

namespace {

constexpr const char* kQwenDigest = "sha256:63e4b22e4e55807a6ef0eea1a20f61623237e85250ac076b546c9f230b91e54d";

const std::map<std::string, Expected> kResolution = {
    {"valid_qwen3_moe.yaml", {"value", kQwenDigest}},
    {"valid_deepseek_v3.yaml", {"value", "entries=5 resolved=1 native=4 not_covered=0 error=0 digest=sha256:"}},
    {"lone_comma.yaml", {"error", "not valid YAML"}},
    {"comma_letter.yaml", {"error", "not valid YAML"}},
    {"newline_comma_ull.yaml", {"error", "not valid YAML"}},
    {"unknown_family.yaml", {"value", "entries=2 resolved=0 native=0 not_covered=2 error=0"}},
    {"inferred_families.yaml", {"value", "entries=2 resolved=1 native=0 not_covered=1 error=0"}},
    {"signed_zero_options.yaml", {"value", "entries=3 resolved=3"}},
    // Found by fuzz_resolution: an error quoting the words "no error" from the plan is still an error.
    {"error_quoting_no_error.yaml", {"error", "found 'qno error'"}},
    // An entry's `when: No error`: a valid error that echoes the plan's words, which the contract
    // once took for a library's placeholder.
    {"when_no_error.yaml", {"error", "replace_module only allows when: low_precision, found when: 'No error'"}},
    // Found by fuzz_resolution: the byte reached a diagnostic, and the summary was no valid JSON.
    {"invalid_utf8_model_type.yaml", {"error", "the plan is not valid UTF-8 (byte 0x90)"}},
    {"wrong_slot.yaml", {"value", "entries=1 resolved=0 native=0 not_covered=1 error=0"}},
};

const std::map<std::string, Expected> kOption = {
    {"bool.txt", {"value", "use_fused_ops=True\n"}},
    {"float.txt", {"value", "eps=1e-05\n"}},
    {"string.txt", {"value", "name='hello'\n"}},
    {"empty_value.txt", {"value", "x=None\n"}},
    {"tilde.txt", {"value", "x=None\n"}},
    {"quoted_number.txt", {"value", "n='3'\n"}},
    {"negative_zero.txt", {"value", "x=-0.0\n"}},
    {"nan.txt", {"value", "x='.nan'\n"}},  // as in a plan: YAML 1.1's .nan is not read as a float
    {"three_options.txt", {"value", "a=1\nb=2.5\nc=None\n"}},
    {"anchor.txt", {"value", "x=1\n"}},
    {"tagged.txt", {"value", "x="}},
    {"escape_sequence.txt", {"value", "x="}},
    {"invalid_utf8.txt", {"error", "option 'x': the value is not valid UTF-8 (byte 0xc0)"}},
    {"colon_value.txt", {"error", "expected a scalar"}},
    {"dashes.txt", {"value", "x='1 --- 2'\n"}},
    {"document_marker.txt", {"value", "x=2\n"}},
    {"name_not_identifier.txt", {"error", "expected name=value with a Python identifier as the name"}},
    {"no_equals.txt", {"error", "expected name=value with a Python identifier as the name"}},
    {"empty_name.txt", {"error", "expected name=value with a Python identifier as the name"}},
    {"second_bad.txt", {"error", "expected name=value with a Python identifier as the name, found 'bad'"}},
    {"list_value.txt", {"error", "option 'x': expected a scalar (bool, number, string or null), found a list"}},
    {"mapping_value.txt", {"error", "option 'x': expected a scalar (bool, number, string or null), found a mapping"}},
    {"comma.txt", {"error", "not valid YAML: unexpected ','"}},  // the input that hung yaml-cpp's LoadAll
    {"comma_letter.txt", {"error", "not valid YAML: unexpected ','"}},
    {"integer_out_of_range.txt", {"error", "out of range"}},
    {"nul_byte.txt", {"error", "option 'x': the value contains a NUL byte"}},  // once read as 'a'
    {"undefined_alias.txt", {"error", "not a valid YAML scalar"}},
    {"unterminated_quote.txt", {"error", "not a valid YAML scalar"}},
};

// Real plugin files as the SDK built them, truncated and corrupted (make_table_seeds.py): each loaded
// or refused at its stage. PLUGIN stands for the scratch copy's path.
const std::map<std::string, Expected> kLoader = {
    {"abi_4.so",
     {"error",
      "compatibility: PLUGIN: has ABI major 4; the plugin is ABI 4.1; this core is ABI 5.1, "
      "abi=5.1;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0; rebuild it against famspec 0.1.0"}},
    {"abi_minor_newer.so",
     {"error",
      "compatibility: PLUGIN: needs a newer core (ABI minor 2); the plugin is ABI 5.2; this core is ABI 5.1, "
      "abi=5.1;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0; use a famspec of ABI 5.2 or newer"}},
    {"byte_order_swapped.so",
     {"error",
      "compatibility: PLUGIN: has tables for another word size or byte order; the plugin is ABI 5.1, "
      "abi=5.1;format=2;word-bits=64;byte-order=big;compiler=; this core is ABI 5.1, "
      "abi=5.1;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0; rebuild it against famspec 0.1.0"}},
    {"components.so", {"value", "families=0 factories=0 cp_wrappers=4 archetypes=1 components=15"}},
    // the copy bomb of corpus/tables in a real plugin file
    {"copy_bomb.so",
     {"error",
      "register: PLUGIN: refused: its rows name their strings and lists so often that copying them would take more "
      "than 8 times its 5664-byte block"}},
    {"deepseek_v3.so", {"value", "families=2 factories=4 cp_wrappers=1 archetypes=0 components=0"}},
    {"duplicate_family.so",
     {"error",
      "register: PLUGIN: registration rejected: family 'fuzz' registered twice (family fuzz and family fuzz)"}},
    {"empty.so", {"error", "manifest: PLUGIN: not a readable plugin: not an ELF file"}},
    {"format_1.so",
     {"error",
      "compatibility: PLUGIN: has table format 1; the plugin is ABI 5.1, "
      "abi=5.1;format=1;word-bits=64;byte-order=little;compiler=; this core is ABI 5.1, "
      "abi=5.1;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0; rebuild it against famspec 0.1.0"}},
    {"kind_unknown.so",
     {"error",
      "register: PLUGIN: refused: its tables cannot be read: a table row gives a kind its type does not have"}},
    // it borrows kimi_k3's CP wrappers, and loads without kimi_k3's plugin
    {"kimi_linear.so", {"value", "families=1 factories=0 cp_wrappers=0 archetypes=0 components=0"}},
    {"machine_aarch64.so",
     {"error",
      "compatibility: PLUGIN: built for another machine; the plugin is AArch64, ELF64, little-endian; this core is "
      "x86-64, ELF64, little-endian; rebuild it on this one"}},
    {"magic_other.so",
     {"error",
      "compatibility: PLUGIN: its .famspec_tables section does not begin with famspec's table magic: not a famspec "
      "plugin"}},
    {"not_elf.so", {"error", "manifest: PLUGIN: not a readable plugin: not an ELF file"}},
    {"not_utf8.so",
     {"error",
      "register: PLUGIN: refused: its tables cannot be read: a string that is not UTF-8 (byte 0 of its strings)"}},
    // a real plugin alone: its factories construct components of the components plugin
    {"qwen3_moe.so",
     {"error",
      "validate: PLUGIN: factory hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm "
      "constructs component hyper_parallel.components.modules.RMSNorm, which no loaded plugin registers"}},
    {"segment_past_end.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: truncated ELF file: segment 3 (offset 15976, 19096 bytes) lies past "
      "the end of the file (19096 bytes)"}},
    {"tables_size_past_end.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: truncated ELF file: the .famspec_tables section (offset 8192, 19096 "
      "bytes) lies past the end of the file (19096 bytes)"}},
    {"tables_writable.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: the .famspec_tables section is not read-only data (type 1, flags 0x3); "
      "build the plugin with famspec_add_plugin()"}},
    {"truncated_half.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: truncated ELF file: its section table at offset 17560 lies past the "
      "end of the file (9548 bytes)"}},
    {"truncated_in_tables.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: truncated ELF file: its section table at offset 17560 lies past the "
      "end of the file (8256 bytes)"}},
    {"truncated_section_table.so",
     {"error",
      "manifest: PLUGIN: not a readable plugin: truncated ELF file: its section table at offset 17560 lies past the "
      "end of the file (18996 bytes)"}},
};

// The blocks of three shipped plugins, variants of qwen3_moe's and blocks built by make_table_seeds.py.
const std::map<std::string, Expected> kTables = {
    // qwen3_moe's block as ABI 5.0 wrote it: a 152-byte header; what a 5.1 header holds after it is not read
    {"abi_5_0.bin", {"value", "families=1 factories=3 cp_wrappers=7 archetypes=1 components=0"}},
    {"aliases_outside.bin", {"error", "cannot be read: a table row names a string or list outside its array"}},
    {"byte_size_below_header.bin", {"error", "cannot be read: a table block of 100 bytes in a section of 5792"}},
    {"byte_size_past_section.bin", {"error", "cannot be read: a table block of 5800 bytes in a section of 5792"}},
    {"chars_past_end.bin", {"error", "cannot be read: a table array lies outside the block of 5792 bytes"}},
    {"components.bin", {"value", "families=0 factories=0 cp_wrappers=4 archetypes=1 components=15"}},
    // 300 aliases naming the same 3000 characters: 900 KB to copy from a 5664-byte block
    {"copy_bomb.bin",
     {"error",
      "refused: its rows name their strings and lists so often that copying them would take more than 8 times its "
      "5664-byte block"}},
    // a parameter count of 2^32 - 1: offset + count * size computed without wrapping
    {"count_wraps.bin", {"error", "cannot be read: a table array lies outside the block of 5792 bytes"}},
    {"deepseek_v3.bin", {"value", "families=2 factories=4 cp_wrappers=1 archetypes=0 components=0"}},
    {"duplicate_family.bin", {"error", "rejected: family 'fuzz' registered twice (family fuzz and family fuzz)"}},
    {"format_1.bin", {"error", "cannot be read: table format 1, expected 2"}},
    // the framework's CP wrappers, a range past the end of the CpWrapperRow array
    {"framework_range_outside.bin", {"error", "cannot be read: a table row names a string or list outside its array"}},
    {"header_only.bin", {"value", "families=0 factories=0 cp_wrappers=0 archetypes=0 components=0"}},
    {"header_size_small.bin",
     {"error", "cannot be read: a table header of 100 bytes in a section of 5792, expected at least 152"}},
    {"kind_unknown.bin", {"error", "cannot be read: a table row gives a kind its type does not have"}},
    // a family that borrows kimi_k3's CP wrappers: they are no claim and no CP wrapper of its own
    {"kimi_linear.bin", {"value", "families=1 factories=0 cp_wrappers=0 archetypes=0 components=0"}},
    {"name_outside_chars.bin",
     {"error", "cannot be read: the plugin's name, version, description or compiler lies outside its characters"}},
    {"not_utf8.bin", {"error", "cannot be read: a string that is not UTF-8 (byte 0 of its strings)"}},
    {"nul_in_strings.bin", {"error", "cannot be read: a NUL byte at character 0 of its strings"}},
    {"one_family.bin", {"value", "families=1 factories=0 cp_wrappers=0 archetypes=0 components=0"}},
    {"overlong_utf8.bin", {"error", "cannot be read: a string that is not UTF-8 (byte 0 of its strings)"}},
    {"parameters_unaligned.bin", {"error", "cannot be read: a table array lies outside the block of 5792 bytes"}},
    {"qwen3_moe.bin", {"value", "families=1 factories=3 cp_wrappers=7 archetypes=1 components=0"}},
    // the block is what byte_size says; the rest of the section is not read
    {"trailing_byte.bin", {"value", "families=1 factories=3 cp_wrappers=7 archetypes=1 components=0"}},
    {"truncated_half.bin", {"error", "cannot be read: a table block of 5792 bytes in a section of 2896"}},
    // refused by stage compatibility before the check reads a header
    {"truncated_header.bin", {"error", "shorter than a table header"}},
    {"truncated_last_byte.bin", {"error", "cannot be read: a table block of 5792 bytes in a section of 5791"}},
};

}  // namespace

TEST_CASE("the resolution corpus: each plan resolves, summarises and digests to its expected answer") {
    famspec::LoadOptions options;
    options.directories = {famspec::test::plugin_dir()};
    const auto registry = famspec::load_plugins(options);
    REQUIRE(registry->all_ok());
    famspec::ResolverOptions small;
    small.cache_capacity = 4;
    const famspec::Resolver warm(registry, small);
    replay("resolution", kResolution, [&](const std::string& path, std::string& violation) {
        return famspec::fuzz::resolution_answer(famspec::fuzz::read_file(path), registry, warm, violation);
    });
}

TEST_CASE("the --option corpus: each line set is read to its expected options or error") {
    replay("option", kOption, [](const std::string& path, std::string& violation) {
        return famspec::fuzz::option_answer(famspec::fuzz::read_file(path), violation);
    });
}

TEST_CASE("the loader corpus: load_plugins reads each plugin file, or refuses it at its stage") {
    replay("loader", kLoader, [](const std::string& path, std::string& violation) {
        // A private copy: the trust stage refuses a plugin that others may write, wherever it is checked out.
        const famspec::fuzz::TempDir dir;
        const std::string copy = dir.path() + "/famspec_input.so";
        famspec::fuzz::write_file(copy, famspec::fuzz::read_file(path));
        return famspec::fuzz::loader_answer(copy, violation);
    });
}

TEST_CASE("the tables corpus: a block is checked whole, claimed and staged under its budget, or refused") {
    replay("tables", kTables, [](const std::string& path, std::string& violation) {
        return famspec::fuzz::tables_answer(famspec::fuzz::read_file(path), violation);
    });
}

// tests/fuzz/findings/family_name_per_factory.bin: one family with a 2048-byte name and 64 factories
// without a `where`. Each factory's copy of the family name (its Data, its position label, the error
// that quotes the label) is charged to the copy budget, so the block is refused before the core holds
// more than the bound (it once held 145219 bytes of text for a 6394-byte block).
TEST_CASE("a block's copies stay within the budget when every factory repeats a long family name") {
    std::string violation;
    const auto answer = famspec::fuzz::tables_answer(
        famspec::fuzz::read_file(famspec::test::source_dir() + "/tests/fuzz/findings/family_name_per_factory.bin"),
        violation);
    CHECK(answer.outcome == "error");
    CHECK(answer.detail.starts_with("refused: "));
    CHECK(violation == "");
}

TEST_CASE("the contract tells a library's 'no error' from the same words echoed from the plan") {
    const auto parse_error = [](const std::string& message) {
        return famspec::PlanParse(famspec::unexpected(famspec::PlanErrors{{{"fuzz.yaml", {6, 11}, message}}, false}));
    };
    const auto echo = parse_error("replace_module only allows when: low_precision, found when: No error");
    CHECK(famspec::fuzz::plan_contract_violation(echo, {}, "plan_overrides:\n  - when: No error\n") == "");
    CHECK(famspec::fuzz::plan_contract_violation(echo, {}, "plan_overrides: []\n") ==
          "an error that says 'no error': replace_module only allows when: low_precision, found when: No error");
    const auto placeholder = parse_error("cannot read the plan: no error");
    CHECK(famspec::fuzz::plan_contract_violation(placeholder, {}, "plan_overrides: []\n") ==
          "an error that says 'no error': cannot read the plan: no error");
}
