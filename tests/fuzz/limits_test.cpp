// The documented limits of the two parsers, at and just past each boundary, and generated inputs too
// large to commit (very long lines, a plan with more entries than allowed, a 64 MiB table section).
#include <doctest/doctest.h>
#include <elf.h>

#include <cstddef>
#include <string>

#include "famspec/elf_file.hpp"
#include "famspec/plan.hpp"
#include "famspec/sdk/abi.hpp"
#include "fuzz_support.hpp"
#include "parser_results.hpp"

namespace fuzz = famspec::fuzz;
using famspec::PlanLimits;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The seed plugin with its table section moved to the end of the file and grown to `size` bytes.
std::string elf_with_tables_of(std::size_t size) {
    std::string bytes = fuzz::read_file(fuzz::corpus_dir("elf") + "/valid.so");
    const fuzz::ElfLayout layout = fuzz::elf_layout(bytes);
    const auto& section = layout.section(famspec::kTableSection);
    std::string tables = bytes.substr(section.offset, section.size);
    tables.resize(size, '\0');
    const std::size_t offset = bytes.size();
    bytes += tables;
    fuzz::put_le(bytes, section.header_offset + offsetof(Elf64_Shdr, sh_offset), offset, 8);
    fuzz::put_le(bytes, section.header_offset + offsetof(Elf64_Shdr, sh_size), size, 8);
    return bytes;
}

famspec::PlanParse plan(const std::string& text, const PlanLimits& limits = {}) {
    return famspec::parse_plan_text(text, "plan.yaml", limits);
}

std::string error_of(const famspec::PlanParse& parsed) {
    REQUIRE_FALSE(parsed.has_value());
    return parsed.error().first().to_string();
}

std::string nested_plan(std::size_t lists) {
    return "plan_overrides:\n  - match: x\n    params: " + std::string(lists, '[') + std::string(lists, ']') + "\n";
}

std::string plan_with_entries(std::size_t count) {
    std::string text = "model_type: many\nplan_overrides:\n";
    for (std::size_t i = 0; i < count; ++i) {
        text += "  - {match: \"layers." + std::to_string(i) + ".mlp\", when: ep, local_compute_fn: a.b.compute}\n";
    }
    return text;
}

}  // namespace

TEST_CASE("a table section of exactly 64 MiB is read and one byte more is refused naming the limit") {
    const fuzz::TempDir dir;
    const std::string at_limit = dir.path() + "/at_limit.so";
    fuzz::write_file(at_limit, elf_with_tables_of(famspec::kMaxTableBytes));
    const famspec::ElfInfo read = famspec::read_elf_info(at_limit);
    CHECK(read.error == "");
    REQUIRE(read.tables.has_value());
    CHECK(read.tables->size == 64 * kMiB);

    const std::string over_limit = dir.path() + "/over_limit.so";
    fuzz::write_file(over_limit, elf_with_tables_of(famspec::kMaxTableBytes + 1));
    const famspec::ElfInfo refused = famspec::read_elf_info(over_limit);
    CHECK_FALSE(refused.is_elf);
    CHECK_FALSE(refused.tables.has_value());
    CHECK(refused.error == "the .famspec_tables section is 67108865 bytes; the limit is 67108864");
}

TEST_CASE("a plan at the byte limit is parsed and one byte more is refused naming the limit") {
    const std::string head = "plan_overrides: []\n#";
    std::string text = head + std::string(PlanLimits{}.max_bytes - head.size() - 1, 'x') + "\n";
    REQUIRE(text.size() == PlanLimits{}.max_bytes);
    CHECK(plan(text).has_value());
    text += "\n";
    CHECK(error_of(plan(text)) == "plan.yaml:1:1: plan is 4194305 bytes; the limit is 4194304");

    const PlanLimits small{64, 32, 10000};
    CHECK(plan(std::string("plan_overrides: []\n") + std::string(45, '\n'), small).has_value());
    CHECK(error_of(plan(std::string("plan_overrides: []\n") + std::string(46, '\n'), small)) ==
          "plan.yaml:1:1: plan is 65 bytes; the limit is 64");

    const fuzz::TempDir dir;
    fuzz::write_file(dir.path() + "/big.yaml", text);
    const auto from_file = famspec::parse_plan_file(dir.path() + "/big.yaml");
    REQUIRE(!from_file.has_value());
    CHECK(from_file.error().first().message == "plan is 4194305 bytes; the limit is 4194304");
    CHECK(from_file.error().first().location.line == 1);
}

TEST_CASE("a plan at the depth limit is parsed and one level more is refused naming the limit and the place") {
    // Root mapping, plan_overrides list, entry mapping: params' outermost list is level 4.
    CHECK(plan(nested_plan(29)).has_value());
    const auto deep = plan(nested_plan(30));
    CHECK(error_of(deep).find("nesting deeper than 32 levels") != std::string::npos);
    CHECK(deep.error().first().location.line == 3);
    CHECK(deep.error().first().location.column > 13);

    const PlanLimits shallow{PlanLimits{}.max_bytes, 5, 10000};
    CHECK(plan(nested_plan(2), shallow).has_value());
    CHECK(error_of(plan(nested_plan(3), shallow)).find("nesting deeper than 5 levels") != std::string::npos);
}

TEST_CASE("a plan with 10000 entries is parsed and 10001 are refused naming the limit") {
    const auto full = plan(plan_with_entries(10000));
    REQUIRE(full.has_value());
    CHECK(full->entries.size() == 10000);
    CHECK(full->entries.back().location.line == 10002);
    CHECK(error_of(plan(plan_with_entries(10001))) ==
          "plan.yaml:3:3: plan_overrides has 10001 entries; the limit is 10000");

    const PlanLimits few{PlanLimits{}.max_bytes, 32, 3};
    CHECK(plan(plan_with_entries(3), few).has_value());
    CHECK(error_of(plan(plan_with_entries(4), few)) == "plan.yaml:3:3: plan_overrides has 4 entries; the limit is 3");
}

TEST_CASE("very long lines: each generated plan is answered with a value or a clear error") {
    struct Case {
        std::string name;
        std::string text;
        std::string outcome;
        std::string fragment;
    };
    const std::string digits(200000, '7');
    const std::string tail = "\nplan_overrides: []\n";
    const std::vector<Case> plans = {
        {"a 1 MiB plain model_type", "model_type: " + std::string(kMiB, 'q') + tail, "value", "entries=0"},
        {"a 200000-digit quoted model_type", "model_type: \"" + digits + "\"" + tail, "value", "entries=0"},
        // A number where a family name belongs is the wrong type, whatever its size.
        {"a 200000-digit plain model_type", "model_type: " + digits + tail, "error",
         "'model_type': expected a string, found '7777"},
        {"a 200000-digit option",
         "plan_overrides:\n  - match: x\n    local_compute_fn: {_target_: a.f, n: " + digits + "}\n", "error",
         "out of range"},
        {"a float option with 200000 fraction digits",
         "plan_overrides:\n  - match: x\n    local_compute_fn: {_target_: a.f, eps: 0." + std::string(200000, '0') +
             "}\n",
         "value", "entries=1"},
        {"a 1 MiB match pattern", "plan_overrides:\n  - match: \"" + std::string(kMiB, '*') + "\"\n    when: ep\n",
         "value", "entries=1"},
        {"a flow list of 100000 attributes on one line",
         "plan_overrides:\n  - match: x\n    local_compute_fn: a.f\n    tp_divide_attrs: [" +
             [] {
                 std::string s;
                 for (int i = 0; i < 100000; ++i) s += (i ? ",a" : "a") + std::to_string(i);
                 return s;
             }() +
             "]\n",
         "value", "entries=1"},
    };
    for (const Case& c : plans) {
        CAPTURE(c.name);
        const fuzz::ChildOutcome child = fuzz::run_isolated(
            [&](fuzz::Channel& channel) {
                channel.working_on(c.name);
                const famspec::PlanParse parsed = plan(c.text);
                channel.send(fuzz::plan_contract_violation(parsed) + '\0' + fuzz::answer_of(parsed).encode());
            },
            std::chrono::seconds(10));
        if (child.kind != fuzz::ChildOutcome::Kind::finished) {
            FAIL_CHECK("the plan parser " << child.describe() << "; expected " << c.outcome << " '" << c.fragment
                                          << "'");
            continue;
        }
        const std::size_t split = child.output.find('\0');
        REQUIRE(split != std::string::npos);
        const fuzz::Answer answer = fuzz::Answer::decode(child.output.substr(split + 1));
        CAPTURE(answer.detail.substr(0, 200));
        CHECK(child.output.substr(0, split) == "");
        CHECK(answer.outcome == c.outcome);
        CHECK(answer.detail.find(c.fragment) != std::string::npos);
    }
}
