// One-line summaries of what each parser answered, so that a child process can send them back and a
// test can compare them with an expected outcome class and message fragment.
#pragma once

#include <string>
#include <string_view>

#include "famspec/elf_file.hpp"
#include "famspec/plan.hpp"

namespace famspec::fuzz {

struct Answer {
    std::string outcome;   // elf: "tables", "no tables" or "error"; plan: "value" or "error"
    std::string detail;    // elf: "build_id=HEX tables=BYTES" or the error; plan: entries or error
    std::size_t line = 0;  // plan errors only
    std::size_t column = 0;

    std::string encode() const;
    static Answer decode(const std::string& text);
};

Answer answer_of(const ElfInfo& info);
Answer answer_of(const PlanParse& parse);

// What every answer must satisfy whatever the input: a value or a clear error. Empty when it does.
std::string elf_contract_violation(const ElfInfo& info);
// `input` is the plan's text, when the caller has it: an error may echo what the plan says.
std::string plan_contract_violation(const PlanParse& parse, const PlanLimits& limits = {}, std::string_view input = {});

}  // namespace famspec::fuzz
