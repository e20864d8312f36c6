#include "parser_results.hpp"

#include <algorithm>

namespace famspec::fuzz {

std::string Answer::encode() const {
    return outcome + '\n' + std::to_string(line) + '\n' + std::to_string(column) + '\n' + detail;
}

Answer Answer::decode(const std::string& text) {
    Answer answer;
    const std::size_t a = text.find('\n');
    const std::size_t b = a == std::string::npos ? a : text.find('\n', a + 1);
    const std::size_t c = b == std::string::npos ? b : text.find('\n', b + 1);
    if (c == std::string::npos) return {"(no answer)", text, 0, 0};
    answer.outcome = text.substr(0, a);
    answer.line = std::stoul(text.substr(a + 1, b - a - 1));
    answer.column = std::stoul(text.substr(b + 1, c - b - 1));
    answer.detail = text.substr(c + 1);
    return answer;
}

Answer answer_of(const ElfInfo& info) {
    if (!info.is_elf) return {"error", info.error};
    std::string detail = "build_id=" + info.build_id;
    if (info.tables) detail += " tables=" + std::to_string(info.tables->size);
    if (info.legacy_manifest) detail += " legacy_manifest";
    return {info.tables ? "tables" : "no tables", detail};
}

Answer answer_of(const PlanParse& parse) {
    if (parse.has_value()) return {"value", "entries=" + std::to_string(parse->entries.size())};
    return {"error", parse.error().first().message, parse.error().first().location.line,
            parse.error().first().location.column};
}

namespace {

bool is_hex(const std::string& text) {
    return text.size() % 2 == 0 && std::all_of(text.begin(), text.end(),
                                               [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// An error a person can act on: not empty, and not a library's placeholder for "no error recorded".
// A library's "no error" ends the message. The same words at the end of a message that echoes the
// input (`when: No error`, found by fuzz_resolution) are the input's: a message ending in words the
// input holds is taken for an echo.
std::string unclear(const std::string& message, std::string_view input) {
    if (message.empty()) return "an empty error message";
    for (const std::string_view words : {std::string_view("no error"), std::string_view("No error")}) {
        if (message.ends_with(words) && input.find(words) == std::string_view::npos) {
            return "an error that says 'no error': " + message;
        }
    }
    return {};
}

}  // namespace

std::string elf_contract_violation(const ElfInfo& info) {
    if (info.is_elf && !info.error.empty()) return "is_elf with an error: " + info.error;
    if (!info.is_elf) {
        if (info.tables) return "tables from a file that is not a readable ELF";
        return unclear(info.error, {});
    }
    if (info.tables) {
        if (info.tables->size > kMaxTableBytes) {
            return "a table section of " + std::to_string(info.tables->size) + " bytes, over the limit";
        }
        if (info.tables->words.size() * sizeof(std::uint64_t) < info.tables->size) {
            return "a table section stored in fewer bytes than its size";
        }
    }
    if (!is_hex(info.build_id)) return "a build id that is not lower-case hex: " + info.build_id;
    return {};
}

std::string plan_contract_violation(const PlanParse& parse, const PlanLimits& limits, std::string_view input) {
    if (!parse) {
        const PlanError& e = parse.error().first();
        if (e.location.line == 0 || e.location.column == 0) {
            return "an error without a line and column: " + e.to_string().substr(0, 200);
        }
        return unclear(e.message, input);
    }
    if (parse->entries.size() > limits.max_entries) return "more entries than the limit";
    for (const PlanEntry& entry : parse->entries) {
        if (entry.match.empty()) return "an entry without match patterns";
        if (entry.location.line == 0) return "an entry without a line";
    }
    return {};
}

}  // namespace famspec::fuzz
