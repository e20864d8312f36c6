// How a plan's text reaches the reader: YAML merge keys read as the runtime's loader reads them,
// files that cannot be read, values echoed in errors, and text that is not UTF-8.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "famspec/plan.hpp"
#include "process.hpp"
#include "toy_registry.hpp"

using famspec::parse_plan_text;
using famspec::PlanLimits;
using namespace famspec::test;
namespace fs = std::filesystem;

namespace {

famspec::Plan plan_of(const std::string& text) {
    auto parsed = parse_plan_text(text, "plan.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().first().to_string());
    return std::move(*parsed);
}

std::string error_of(const std::string& text, const PlanLimits& limits = {}, bool strict = false) {
    const auto parsed = parse_plan_text(text, "plan.yaml", limits, strict);
    REQUIRE(!parsed.has_value());
    return parsed.error().first().to_string();
}

std::string temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "famspec-input-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    return pattern;
}

std::string write_file(const std::string& name, const std::string& bytes) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// ASCII text in a wide encoding, one code unit of `width` bytes per character.
std::string widened(const std::string& ascii, std::size_t width, bool big_endian) {
    std::string out;
    for (const char c : ascii) {
        std::string unit(width, '\0');
        unit[big_endian ? width - 1 : 0] = c;
        out += unit;
    }
    return out;
}

std::vector<std::string> toy_cli(std::vector<std::string> arguments) {
    std::vector<std::string> out{"--plugin-path", fixture_dir("toy_components"), "--plugin-path", fixture_dir("toy")};
    out.insert(out.end(), arguments.begin(), arguments.end());
    return out;
}

}  // namespace

TEST_CASE("a top-level merge key gives the plan its keys, and an explicit key wins over it") {
    CHECK(plan_of("defaults: &defaults\n  model_type: qwen3_moe\n<<: *defaults\nplan_overrides: []\n").model_type ==
          "qwen3_moe");
    CHECK(plan_of("defaults: &d {model_type: a, architecture: B}\n<<: *d\nmodel_type: c\nplan_overrides: []\n")
              .model_type == "c");
    CHECK(plan_of("defaults: &d {model_type: a, architecture: B}\n<<: *d\nmodel_type: c\nplan_overrides: []\n")
              .architecture == "B");
    // The whole plan_overrides list may come from a merge too.
    const auto merged = plan_of("base: &b\n  plan_overrides:\n    - match: x\n<<: *b\n");
    REQUIRE(merged.entries.size() == 1);
    CHECK(merged.entries[0].match == std::vector<std::string>{"x"});
}

TEST_CASE("merge keys in entries and in targets: explicit keys, then the merged mappings in their order") {
    const auto plan = plan_of(
        "plan_overrides:\n"
        "  - &base {match: x, module_type: a.B, replace_module: a.f}\n"
        "  - <<: *base\n"
        "    match: y\n");
    REQUIRE(plan.entries.size() == 2);
    CHECK(plan.entries[1].match == std::vector<std::string>{"y"});
    CHECK(plan.entries[1].module_type == "a.B");
    CHECK(plan.entries[1].replace_module->path == "a.f");
    CHECK(plan.entries[1].location.line == 3);

    const std::string anchors = "a: &a {when: ep}\nb: &b {when: cp, module_type: a.B}\n";
    // In a list the first mapping wins; of two merge keys, the last one.
    CHECK(plan_of(anchors + "plan_overrides:\n  - <<: [*a, *b]\n    match: x\n").entries[0].when == "ep");
    CHECK(plan_of(anchors + "plan_overrides:\n  - <<: [*b, *a]\n    match: x\n").entries[0].when == "cp");
    CHECK(plan_of(anchors + "plan_overrides:\n  - <<: *a\n    <<: *b\n    match: x\n").entries[0].when == "cp");
    CHECK(plan_of(anchors + "plan_overrides:\n  - <<: [*a, *b]\n    match: x\n").entries[0].module_type == "a.B");
    CHECK(plan_of(anchors + "plan_overrides:\n  - <<: [*a, *b]\n    match: x\n    when: sp\n").entries[0].when == "sp");

    // Nested: a target's options, and a mapping that merges a mapping that merges.
    const auto nested = plan_of(
        "opts: &o {_target_: a.f, eps: 0.5}\n"
        "more: &m {<<: *o, count: 3}\n"
        "plan_overrides:\n"
        "  - match: x\n"
        "    module_type: a.B\n"
        "    replace_module:\n"
        "      <<: *m\n"
        "      eps: 0.25\n");
    const famspec::Target& target = *nested.entries[0].replace_module;
    CHECK(target.path == "a.f");
    CHECK(target.options.at("eps") == famspec::PyLiteral(0.25));
    CHECK(target.options.at("count") == famspec::PyLiteral(std::int64_t{3}));
}

TEST_CASE("a quoted '<<' is an ordinary key; a merge that cannot be made is an error where it is written") {
    const auto parsed = parse_plan_text("plan_overrides:\n  - match: x\n    '<<': {when: ep}\n", "plan.yaml");
    REQUIRE(parsed.has_value());
    CHECK_FALSE(parsed->entries[0].when.has_value());
    REQUIRE(parsed->warnings.size() == 1);
    CHECK(parsed->warnings[0].message == "plan_overrides entry key '<<' is not read by famspec");
    CHECK(plan_of("a: &a {when: ep}\nplan_overrides:\n  - !!merge <<: *a\n    match: x\n").entries[0].when == "ep");

    CHECK(error_of("<<: 3\nplan_overrides: []\n") ==
          "plan.yaml:1:5: merge key '<<': expected a mapping (such as *defaults) or a list of mappings, found '3'");
    CHECK(error_of("a: &a {x: 1}\nplan_overrides:\n  - <<: [*a, b]\n    match: x\n") ==
          "plan.yaml:3:14: merge key '<<': expected a mapping (such as *defaults) or a list of mappings, found 'b'");
    CHECK(error_of("a: &a {b: 1, <<: *a}\nplan_overrides: []\n") ==
          "plan.yaml:1:14: merge key '<<': a mapping cannot merge itself or a mapping it is part of");
    // A key the merged mapping repeats is repeated in the entry, and refused where it is written.
    CHECK(error_of("a: &a {when: ep, when: cp}\nplan_overrides:\n  - <<: *a\n    match: x\n") ==
          "plan.yaml:1:18: duplicate key 'when'");
}

TEST_CASE("merges count against the node budget: they cannot multiply a small file") {
    std::string keys;
    for (int i = 0; i < 10; ++i) keys += (i ? ", k" : "k") + std::to_string(i) + ": " + std::to_string(i);
    const std::string text = "a: &a {" + keys + "}\nb: {<<: [*a, *a, *a, *a, *a, *a]}\nplan_overrides: []\n";
    PlanLimits tight;
    tight.max_nodes = 50;
    CHECK(error_of(text, tight) ==
          "plan.yaml:2:4: the plan's merge keys ('<<') look at more than 50 pairs (YAML "
          "aliases can multiply a small file)");
    PlanLimits enough;
    enough.max_nodes = 200;
    CHECK(parse_plan_text(text, "plan.yaml", enough).has_value());
}

TEST_CASE("a plan file that cannot be read is named with what went wrong, without a line") {
    const auto missing = famspec::parse_plan_file("/nonexistent/plan.yaml");
    REQUIRE(!missing.has_value());
    CHECK(missing.error().first().to_string() ==
          "/nonexistent/plan.yaml: cannot read the plan: No such file or directory");
    const std::string directory = temp_dir();
    const auto folder = famspec::parse_plan_file(directory);
    REQUIRE(!folder.has_value());
    CHECK(folder.error().first().to_string() ==
          directory + ": cannot read the plan: it is a directory, not a plan file");

    const auto cli = run_cli(toy_cli({"check", directory}));
    CHECK(cli.exit_code == 2);
    CHECK(cli.out.empty());
    CHECK(cli.err == "famspec: " + directory + ": cannot read the plan: it is a directory, not a plan file\n");
    const auto json = run_cli(toy_cli({"check", "/nonexistent/plan.yaml", "--json"}));
    CHECK(json.exit_code == 2);
    CHECK(json.err == "famspec: /nonexistent/plan.yaml: cannot read the plan: No such file or directory\n");
    CHECK(json.out.find(R"("column":null,"file":"/nonexistent/plan.yaml","kind":"plan","line":null)") !=
          std::string::npos);
}

TEST_CASE("a value echoed in an error is cut to a readable length, between two characters, on one line") {
    const std::string key(200, 'k');
    CHECK(error_of("plan_overrides:\n  - match: x\n    " + key + ": 1\n", {}, true) ==
          "plan.yaml:3:5: plan_overrides entry key '" + std::string(60, 'k') +
              "...' (200 characters) is not read by famspec (an error under strict reading)");
    CHECK(error_of("plan_overrides:\n  - match: x\n    module_type: a.B\n    replace_module: a.f\n    when: " +
                   std::string(100, 'w') + "\n") ==
          "plan.yaml:2:5: replace_module only allows when: low_precision, found when: '" + std::string(60, 'w') +
              "...' (100 characters)");
    CHECK(error_of("model_type: x\n" + key + ": 1\n" + key + ": 2\nplan_overrides: []\n") ==
          "plan.yaml:3:1: duplicate key '" + std::string(60, 'k') + "...' (200 characters)");
    CHECK(error_of("plan_overrides:\n  - match: x\n    local_compute_fn: {_target_: a.f, " + key + "-: 1}\n") ==
          "plan.yaml:3:39: option name '" + std::string(60, 'k') + "...' (201 characters) is not a Python identifier");
    // Two-byte characters: the cut falls between two of them, and the count is of characters.
    std::string accents;
    for (int i = 0; i < 100; ++i) accents += "\xC3\xA9";
    std::string thirty;
    for (int i = 0; i < 30; ++i) thirty += "\xC3\xA9";
    CHECK(error_of("plan_overrides:\n  - match: x\n    module_type: " + accents + "\n") ==
          "plan.yaml:3:18: 'module_type': expected a dotted Python path (module.Name), found '" + thirty +
              "...' (100 characters)");
    // A control character is an escape: the message stays on one line.
    CHECK(error_of("plan_overrides:\n  - match: x\n    module_type: \"a\\tb\\nc\\x01\"\n") ==
          "plan.yaml:3:18: 'module_type': expected a dotted Python path (module.Name), found 'a\\tb\\nc\\x01'");
}

TEST_CASE("a plan in UTF-16 or UTF-32 is refused by its name; a UTF-8 byte-order mark is skipped") {
    const std::string plan = "model_type: toy\nplan_overrides: []\n";
    CHECK(error_of("\xFF\xFE" + widened(plan, 2, false)) ==
          "plan.yaml:1:1: the plan is UTF-16LE text (it starts with the byte-order mark FF FE); famspec reads plans "
          "as UTF-8, as the training runtime reads its config: convert the file, for example with iconv -f UTF-16LE "
          "-t UTF-8");
    CHECK(error_of("\xFE\xFF" + widened(plan, 2, true))
              .find("the plan is UTF-16BE text (it starts with the "
                    "byte-order mark FE FF)") != std::string::npos);
    CHECK(error_of(std::string("\xFF\xFE\0\0", 4) + widened(plan, 4, false))
              .find("the plan is UTF-32LE text (it starts with the byte-order mark FF FE 00 00)") != std::string::npos);
    CHECK(error_of(widened(plan, 2, false)) ==
          "plan.yaml:1:1: the plan looks like UTF-16LE text without a byte-order mark (NUL bytes around its first "
          "character); famspec reads plans as UTF-8, as the training runtime reads its config: convert the file, for "
          "example with iconv -f UTF-16LE -t UTF-8");
    CHECK(error_of(widened(plan, 4, true)).find("looks like UTF-32BE text") != std::string::npos);
    // A NUL byte further on is still a NUL byte.
    CHECK(error_of(std::string("plan_overrides: []\nx: \0\n", 23)) == "plan.yaml:2:4: the plan contains a NUL byte");

    // UTF-8 with a byte-order mark reads as without one, and positions count from the first character.
    CHECK(plan_of("\xEF\xBB\xBF" + plan).model_type == "toy");
    CHECK(error_of("\xEF\xBB\xBFplan_overrides: 3\n") == error_of("plan_overrides: 3\n"));
    CHECK(error_of("\xEF\xBB\xBFplan_overrides: []\n\xFF\n") ==
          "plan.yaml:2:1: the plan is not valid UTF-8 (byte 0xff)");

    const std::string utf16 = write_file("plan.yaml", "\xFF\xFE" + widened(plan, 2, false));
    const auto cli = run_cli(toy_cli({"check", utf16}));
    CHECK(cli.exit_code == 2);
    CHECK(cli.err.find("famspec: " + utf16 + ":1:1: the plan is UTF-16LE text") == 0);
}

TEST_CASE("the CLI reads a top-level merge key as the runtime does: the family comes from it") {
    const std::string path = write_file(
        "plan.yaml", std::string("defaults: &defaults\n  model_type: toy\n<<: *defaults\nplan_overrides:\n") +
                         "  - match: '*.norm'\n    module_type: " + kToyModuleType +
                         "\n    replace_module: " + kToyNorm + "\n");
    const auto cli = run_cli(toy_cli({"check", path, "--json"}));
    CHECK(cli.exit_code == 0);
    CHECK(cli.out.find(R"("model_type":"toy","model_type_note":null,"model_type_source":"model_type")") !=
          std::string::npos);
}
