// Replays the corpora of the five harnesses beyond the parsers (tests/fuzz/corpus/{resolution,
// option,report,loader,tables}/) through the code the libFuzzer harnesses run, each file to its expected
// outcome class and fragment, with every contract of harness_results.hpp checked on the way.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "corpus_replay.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/sdk/abi.hpp"
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

const std::map<std::string, Expected> kReport = {
    {"ok.txt", {"value", "stage=validate result=ok"}},
    {"error_result.txt", {"value", "stage=register result=error(register)"}},
    {"no_result.txt", {"value", "stage=open result=none"}},
    {"empty.txt", {"value", "stage=open result=none"}},
    {"result_without_newline.txt", {"value", "stage=open result=ok"}},
    {"line_after_result.txt", {"error", "a line follows its result: 'stage open'"}},
    {"empty_line_after_result.txt", {"error", "a line follows its result: ''"}},
    {"unknown_stage.txt", {"error", "it names no known stage: 'stage nowhere'"}},
    {"neither.txt", {"error", "a line is neither a stage nor a result: 'hello'"}},
    {"empty_line.txt", {"error", "a line is neither a stage nor a result: ''"}},
    {"result_truncated_json.txt", {"error", "its result is not a JSON object"}},
    {"result_array.txt", {"error", "its result is not a JSON object"}},
    {"result_trailing_data.txt", {"error", "its result is not a JSON object"}},
    {"result_without_status.txt", {"error", "its result has no status \"ok\" or \"error\""}},
    {"error_without_message.txt", {"error", "its error result lacks a known stage or a message"}},
    // Found by fuzz_report: once accepted, and verify reported a failure that said nothing.
    {"error_empty_message.txt", {"error", "its error result lacks a known stage or a message"}},
    {"error_unknown_stage.txt", {"error", "its error result lacks a known stage or a message"}},
    {"escape_sequence.txt", {"error", "a line is neither a stage nor a result: '\\x1b[2Jhello'"}},
    {"crlf.txt", {"error", "it names no known stage: 'stage open\\x0d'"}},
    {"nul_byte.txt", {"error", "it names no known stage: 'stage open\\x00'"}},
    {"line_too_long.txt", {"error", "a line is longer than 65536 bytes: 'stage xxxx"}},
    {"unterminated_too_long.txt", {"error", "a line is longer than 65536 bytes: 'yyyy"}},
};

const std::map<std::string, Expected> kLoader = {
    {"one_shipped.json", {"value", "a=refused b=refused drift=0 shared=yes"}},
    {"abi_major_2.json", {"value", "a=refused b=refused drift=0 shared=yes"}},
    {"abi_minor_newer.json", {"value", "a=refused"}},
    {"descriptor_short.json", {"value", "a=refused"}},
    {"no_fingerprint.json", {"value", "a=refused"}},
    {"fingerprint_other_compiler.json", {"value", "a=refused"}},
    {"same_family_twice.json", {"value", "drift=1 shared=yes"}},
    {"same_spelling.json", {"value", "shared=yes"}},
    {"disjoint.json", {"value", "shared=no"}},
    {"shared_factory.json", {"value", "shared=yes"}},
    // A declaration listed twice is one declaration: no drift from the same list without the repeat.
    {"duplicate_items.json", {"value", "drift=0 shared=yes"}},
    {"version_drift.json", {"value", "drift=1 shared=yes"}},
    {"description_only.json", {"value", "drift=0 shared=yes"}},
    {"claims_nothing.json", {"value", "a=refused b=refused drift=0 shared=no"}},
    {"first_not_json.json", {"error", "a: manifest is not valid JSON"}},
    {"second_not_json.json", {"error", "b: manifest is not valid JSON"}},
    {"empty.json", {"error", "a: manifest is not valid JSON"}},
    {"three_parts.json", {"error", "b: manifest is not valid JSON"}},
};

// Blocks read out of the fixture plugins, and variants of zoo_good's (make_table_seeds.py).
const std::map<std::string, Expected> kTables = {
    {"zoo_good.bin", {"value", "families=1 factories=2 cp_wrappers=1 archetypes=1 components=1"}},
    {"hand_written.bin", {"value", "families=1 factories=2 cp_wrappers=0 archetypes=0 components=0"}},
    {"registers_nothing.bin", {"value", "families=0 factories=0 cp_wrappers=0 archetypes=0 components=0"}},
    {"trailing_byte.bin", {"value", "families=1 factories=2 cp_wrappers=1 archetypes=1 components=1"}},
    {"misdeclared_keys.bin", {"error", "rejected: "}},
    {"bad_allowed_default.bin", {"error", "rejected: "}},
    {"text_outside_block.bin", {"error", "cannot be read: a table row names a string or list outside its array"}},
    {"truncated_header.bin", {"error", "shorter than a table header"}},
    {"truncated_half.bin", {"error", "bytes) run past the input (652 bytes)"}},
    {"truncated_last_byte.bin", {"error", "(1304 bytes) run past the input (1303 bytes)"}},
    {"format_2.bin", {"error", "cannot be read: table format 2, expected 1"}},
    {"byte_size_below_header.bin", {"error", "cannot be read: a table block shorter than its header"}},
    {"section_past_end.bin", {"error", "cannot be read: a table array lies outside the block of 1304 bytes"}},
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

TEST_CASE("the verify report corpus: what a plugin writes to fd 3 is read, or refused as malformed") {
    replay("report", kReport, [](const std::string& path, std::string& violation) {
        return famspec::fuzz::report_answer(famspec::fuzz::read_file(path), violation);
    });
}

TEST_CASE("the loader corpus: compatibility, drift and conflicts decided on manifests") {
    replay("loader", kLoader, [](const std::string& path, std::string& violation) {
        return famspec::fuzz::loader_answer(famspec::fuzz::read_file(path), violation);
    });
}

TEST_CASE("the tables corpus: a plugin's block is checked whole, then staged, or refused") {
    replay("tables", kTables, [](const std::string& path, std::string& violation) {
        return famspec::fuzz::tables_answer(famspec::fuzz::read_file(path), violation);
    });
}

TEST_CASE("the loader harness accepts a manifest built for this very core") {
    // Not a corpus file: the fingerprint depends on the build (compiler, sanitizers).
    const std::string manifest =
        std::string(R"({"abi":{"descriptor_size":)") + std::to_string(famspec::kMinDescriptorSize) + R"(,"major":)" +
        std::to_string(famspec::kAbiMajor) + R"(,"minor":)" + std::to_string(famspec::kAbiMinor) +
        R"(},"archetypes":[],"components":[],"cp_wrappers":[],"description":"",)"
        R"("factories":[],"families":[],"fingerprint":")" +
        std::string(famspec::core_fingerprint()) + R"(","format":1,"name":"own","version":"1"})";
    std::string violation;
    const auto answer = famspec::fuzz::loader_answer(manifest, violation);
    CHECK(violation.empty());
    CHECK(answer.outcome == "value");
    CHECK(answer.detail == "a=ok b=ok drift=0 shared=no");
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
