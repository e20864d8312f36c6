// Replays the committed seed corpus (tests/fuzz/corpus/<parser>/) through each parser. Every file has
// an expected outcome class and a fragment of the answer; each input runs in a child process, so a
// crash or a hang fails the case that caused it instead of the whole run.
#include "corpus_replay.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "famspec/elf_file.hpp"
#include "famspec/plan.hpp"
#include "fuzz_support.hpp"
#include "parser_results.hpp"

using famspec::fuzz::Answer;
using famspec::fuzz::ChildOutcome;
using famspec::fuzz::Expected;
using famspec::fuzz::kHangLimit;
using famspec::fuzz::replay;

namespace {

constexpr const char* kBuildId = "101112131415161718191a1b1c1d1e1f20212223";
// A hand-made file's answer: its build id and its 152-byte table section (a header, no arrays).
constexpr const char* kValid = "build_id=101112131415161718191a1b1c1d1e1f20212223 tables=152";
constexpr const char* kCorruptTable = "section";  // the answer must say that the section table is corrupt
constexpr const char* kTablesNotReadOnly = "the .famspec_tables section is not read-only data";
constexpr const char* kQwenBuildId = "build_id=d858d50fd31e389912fbb576c118eb4e856ca242 tables=5792";

const std::map<std::string, Expected> kElf = {
    {"valid.so", {"tables", kValid}},
    {"valid_elf32.so", {"tables", kValid}},
    {"valid_big_endian.so", {"tables", kValid}},
    {"extended_numbering.so", {"tables", kValid}},
    {"shentsize_wrong.so", {"tables", kValid}},  // the stride is the class's own Shdr size
    {"segments_inside.so", {"tables", kValid}},
    {"note_segment_past_end.so", {"tables", kValid}},  // only a loaded segment must lie in the file
    {"no_tables.so", {"no tables", "build_id=101112131415161718191a1b1c1d1e1f20212223"}},
    {"legacy_manifest.so", {"no tables", "build_id=101112131415161718191a1b1c1d1e1f20212223 legacy_manifest"}},
    {"no_build_id.so", {"tables", "build_id= tables=152"}},
    {"no_sections.so", {"no tables", "build_id="}},
    {"empty_tables.so", {"tables", "build_id= tables=0"}},
    {"two_tables.so", {"error", "two .famspec_tables sections"}},
    {"build_id_wrong_owner.so", {"no tables", "build_id="}},
    {"build_id_wrong_type.so", {"no tables", "build_id="}},
    {"build_id_desc_overflow.so", {"no tables", "build_id="}},
    {"build_id_truncated_note.so", {"no tables", "build_id="}},
    {"build_id_size_huge.so", {"tables", "build_id= tables=152"}},  // an unreadable note only loses the build id
    {"type_exec.so", {"error", "not an ELF shared object (e_type 2)"}},
    {"type_rel.so", {"error", "not an ELF shared object (e_type 1)"}},
    {"empty.so", {"error", "not an ELF file"}},
    {"not_elf.so", {"error", "not an ELF file"}},
    {"magic_only.so", {"error", "truncated ELF header (4 bytes)"}},
    {"header_truncated.so", {"error", "truncated ELF header (40 bytes)"}},
    {"bad_class.so", {"error", "corrupt ELF identification (class, byte order or version)"}},
    {"bad_byte_order.so", {"error", "corrupt ELF identification (class, byte order or version)"}},
    {"tables_nobits.so", {"error", "the .famspec_tables section is not read-only data (type 8, flags 0x2)"}},
    {"tables_writable.so", {"error", "the .famspec_tables section is not read-only data (type 1, flags 0x3)"}},
    {"tables_executable.so", {"error", "the .famspec_tables section is not read-only data (type 1, flags 0x6)"}},
    {"tables_not_loaded.so", {"error", "the .famspec_tables section is not read-only data (type 1, flags 0x0)"}},
    {"tables_offset_past_end.so", {"error", "truncated ELF file: the .famspec_tables section (offset "}},
    {"tables_offset_wraps.so", {"error", "truncated ELF file: the .famspec_tables section (offset "}},
    {"tables_size_past_end.so",
     {"error",
      "truncated ELF file: the .famspec_tables section (offset 104, 4096 bytes) lies past the end of the file (560 "
      "bytes)"}},
    {"tables_size_over_limit.so", {"error", "the .famspec_tables section is 67108865 bytes; the limit is 67108864"}},
    {"tables_size_huge.so", {"error", "bytes; the limit is 67108864"}},
    {"segment_past_end.so", {"error", "truncated ELF file: segment 0 (offset 0, 1048576 bytes) lies past the end"}},
    {"segment_past_end_elf32.so",
     {"error", "truncated ELF file: segment 0 (offset 0, 1048576 bytes) lies past the end"}},
    {"segment_offset_wraps.so", {"error", "truncated ELF file: segment 0 (offset 18446744073709551600, 32 bytes)"}},
    {"phnum_too_big.so", {"error", "truncated ELF file: its program header table at offset 64 lies past the end"}},
    {"phoff_past_end.so", {"error", "truncated ELF file: its program header table at offset 1099511627776"}},
    // A corrupt section table hides the tables; answering "no tables" would send the user to
    // rebuild a plugin that has them.
    {"section_table_truncated.so", {"error", kCorruptTable}},
    {"shoff_past_end.so", {"error", kCorruptTable}},
    {"shoff_huge.so", {"error", kCorruptTable}},
    {"shoff_unaligned.so", {"error", kCorruptTable}},
    {"shnum_too_big.so", {"error", kCorruptTable}},
    {"shstrndx_out_of_range.so", {"error", kCorruptTable}},
    {"shstrndx_not_strtab.so", {"error", kCorruptTable}},
    {"shstrtab_size_huge.so", {"error", kCorruptTable}},
    {"extended_shstrndx_bad.so", {"error", kCorruptTable}},
    {"section_name_out_of_range.so", {"error", kCorruptTable}},
    // A real plugin (qwen3_moe) as the SDK built it, then cut short or corrupted (make_table_seeds.py).
    {"real_qwen3_moe.so", {"tables", kQwenBuildId}},
    {"real_machine_aarch64.so", {"tables", kQwenBuildId}},  // the machine is the loader's to refuse
    {"real_truncated_section_table.so", {"error", kCorruptTable}},
    {"real_truncated_half.so", {"error", kCorruptTable}},
    {"real_truncated_in_tables.so", {"error", kCorruptTable}},
    {"real_tables_writable.so", {"error", kTablesNotReadOnly}},
    {"real_tables_size_past_end.so", {"error", "truncated ELF file: the .famspec_tables section"}},
    {"real_segment_past_end.so", {"error", "truncated ELF file: segment 3"}},
};

const std::map<std::string, Expected> kPlan = {
    {"valid_qwen3_moe.yaml", {"value", "entries=4"}},
    {"valid_minimal.yaml", {"value", "entries=0"}},
    {"valid_null_overrides.yaml", {"value", "entries=0"}},
    {"valid_flow_style.yaml", {"value", "entries=1"}},
    {"valid_anchors_aliases.yaml", {"value", "entries=3"}},
    {"valid_crlf.yaml", {"value", "entries=1"}},
    {"valid_unicode.yaml", {"value", "entries=0"}},
    {"valid_quoted_number_option.yaml", {"value", "entries=1"}},
    {"second_document.yaml", {"error", "the plan holds a second YAML document; expected one"}},
    // yaml-cpp 0.7's LoadAll never returns on these (one empty document after another).
    {"lone_comma.yaml", {"error", "not valid YAML: unexpected ','"}},
    {"comma_letter.yaml", {"error", "not valid YAML: unexpected ','"}},
    {"newline_comma_ull.yaml", {"error", "not valid YAML: unexpected ','"}},
    // Legal YAML, but a billion paths through shared nodes: refused by the node budget, not walked.
    {"alias_bomb.yaml", {"error", "the plan expands to more than 1000000 nodes"}},
    {"empty.yaml", {"error", "the plan is empty; expected a mapping with a plan_overrides list"}},
    {"comment_only.yaml", {"error", "the plan is empty; expected a mapping with a plan_overrides list"}},
    {"whitespace_only.yaml", {"error", "the plan is empty; expected a mapping with a plan_overrides list"}},
    {"scalar_root.yaml", {"error", "expected a mapping with a plan_overrides list, found 'plan_overrides'"}},
    {"list_root.yaml", {"error", "expected a mapping with a plan_overrides list, found a list"}},
    {"utf16_bom.yaml", {"error", "the plan is UTF-16LE text (it starts with the byte-order mark FF FE)"}},
    {"utf16_no_bom.yaml", {"error", "the plan looks like UTF-16LE text without a byte-order mark"}},
    {"utf8_bom.yaml", {"value", "entries=1"}},
    {"missing_plan_overrides.yaml", {"error", "expected a top-level plan_overrides list"}},
    {"overrides_not_list.yaml", {"error", "'plan_overrides': expected a list, found a mapping"}},
    {"tagged_overrides.yaml", {"value", "entries=0"}},  // yaml-cpp ignores a tag on a collection
    {"entry_not_mapping.yaml", {"error", "plan_overrides entry: expected a mapping, found '*.mlp'"}},
    {"entry_without_match.yaml", {"error", "plan_overrides entry: expected a 'match' key"}},
    {"unknown_top_level_key.yaml", {"value", "entries=0"}},  // a warning: the runtime's sections are its own
    {"unknown_entry_key.yaml", {"value", "entries=1"}},      // a warning: the runtime's entry schema grows
    {"complex_key.yaml", {"error", "expected a string key, found a list"}},
    {"duplicate_top_level_key.yaml", {"error", "duplicate key 'model_type'"}},
    {"duplicate_entry_key.yaml", {"error", "duplicate key 'match'"}},
    {"duplicate_option_key.yaml", {"error", "duplicate key 'eps'"}},
    {"merge_key.yaml", {"value", "entries=2"}},
    {"merge_key_top_level.yaml", {"value", "entries=1"}},
    {"merge_key_list.yaml", {"value", "entries=2"}},
    {"merge_key_scalar.yaml", {"error", "merge key '<<': expected a mapping (such as *defaults) or a list"}},
    {"merge_key_itself.yaml", {"error", "merge key '<<': a mapping cannot merge itself"}},
    {"undefined_alias.yaml", {"error", "not valid YAML: the referenced anchor is not defined"}},
    {"recursive_alias.yaml", {"error", "nesting deeper than 32 levels"}},
    {"tab_indentation.yaml", {"error", "not valid YAML"}},
    {"tab_after_key.yaml", {"value", "entries=1"}},
    {"truncated_flow.yaml", {"error", "not valid YAML"}},
    // yaml-cpp 0.7 accepts an unterminated quote at the end of the file; the damaged name is refused.
    {"truncated_quote.yaml", {"error", "'model_type': expected a family name without spaces or quotes"}},
    {"bad_indentation.yaml", {"error", "not valid YAML"}},
    {"wrong_type_match.yaml", {"error", "'match': expected a string or a non-empty list of strings, found a mapping"}},
    {"empty_match_list.yaml", {"error", "'match': expected a string or a non-empty list of strings, found a list"}},
    {"wrong_type_model_type.yaml", {"error", "'model_type': expected a string, found '42'"}},
    {"wrong_type_exact_type.yaml", {"error", "'exact_type': expected true or false, found 'yes'"}},
    {"wrong_type_codegen.yaml", {"error", "'codegen': expected true or false, found a list"}},
    {"training_config.yaml", {"value", "entries=2"}},
    {"empty_string_target.yaml", {"error", "'local_compute_fn': expected a non-empty string"}},
    {"target_without_path.yaml", {"error", "'local_compute_fn': the target has no _target_ path"}},
    {"target_and_underscore_target.yaml", {"error", "give either _target_ or target, not both"}},
    {"option_not_identifier.yaml", {"error", "option name '2x' is not a Python identifier"}},
    {"option_not_scalar.yaml", {"error", "option 'sizes': expected a scalar"}},
    {"replace_without_module_type.yaml", {"error", "an entry with replace_module needs module_type"}},
    {"replace_with_when.yaml", {"error", "replace_module only allows when: low_precision, found when: 'ep'"}},
    {"match_list_with_strategy.yaml", {"error", "a list of match patterns is allowed only on replacement-only"}},
    {"integer_out_of_range.yaml", {"error", "number '99999999999999999999' is out of range"}},
    {"float_overflow.yaml", {"error", "out of range"}},
    {"float_underflow.yaml", {"error", "out of range"}},
    {"float_in_model_type.yaml", {"error", "'model_type': expected a string"}},
    {"nesting_33.yaml", {"error", "nesting deeper than 32 levels"}},
    {"nesting_600.yaml", {"error", "nesting deeper than 32 levels"}},
    {"nul_byte_in_value.yaml", {"error", "NUL byte"}},
    {"nul_byte_line_start.yaml", {"error", "NUL byte"}},
    // Once accepted: the bytes reached the summary's JSON, which was then no JSON (found by fuzz_resolution).
    {"invalid_utf8.yaml", {"error", "the plan is not valid UTF-8 (byte 0xff)"}},
};

}  // namespace

TEST_CASE("the ELF seed corpus: each file is read to its expected answer") {
    replay("elf", kElf, [](const std::string& path, std::string& violation) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        const famspec::ElfInfo info = famspec::read_elf_info(fd);  // as the loader reads the file it checked
        ::close(fd);
        violation = famspec::fuzz::elf_contract_violation(info);
        return famspec::fuzz::answer_of(info);
    });
}

TEST_CASE("the plan seed corpus: each file is parsed to its expected answer, errors with a line and column") {
    replay("plan", kPlan, [](const std::string& path, std::string& violation) {
        const std::string text = famspec::fuzz::read_file(path);
        const famspec::PlanParse parsed = famspec::parse_plan_text(text, "plan.yaml");
        violation = famspec::fuzz::plan_contract_violation(parsed, {}, text);
        return famspec::fuzz::answer_of(parsed);
    });
}

TEST_CASE("read_elf_info on paths that are not regular files answers with an error, without blocking") {
    const famspec::fuzz::TempDir dir;
    const std::string fifo = dir.path() + "/famspec_fifo.so";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const std::map<std::string, std::string> paths = {
        {"a missing file", dir.path() + "/missing.so"},
        {"a directory", dir.path()},
        {"a FIFO with no writer", fifo},
        {"/dev/null", "/dev/null"},
    };
    for (const auto& [what, path] : paths) {
        CAPTURE(what);
        const ChildOutcome child = famspec::fuzz::run_isolated(
            [&](famspec::fuzz::Channel& channel) {
                channel.working_on(what);
                const famspec::ElfInfo info = famspec::read_elf_info(path);
                channel.send(famspec::fuzz::elf_contract_violation(info) + '\0' +
                             famspec::fuzz::answer_of(info).encode());
            },
            kHangLimit);
        if (child.kind != ChildOutcome::Kind::finished) {
            FAIL_CHECK("read_elf_info " << child.describe());
            continue;
        }
        const std::size_t split = child.output.find('\0');
        REQUIRE(split != std::string::npos);
        const Answer answer = Answer::decode(child.output.substr(split + 1));
        CHECK(child.output.substr(0, split) == "");
        CHECK(answer.outcome == "error");
        CHECK_MESSAGE(!answer.detail.empty(), answer.detail);
    }
}
