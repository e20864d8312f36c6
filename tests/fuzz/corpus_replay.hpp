// Replays the committed corpus of one parser or harness (tests/fuzz/corpus/<name>/): every file has an
// expected outcome class and a fragment of the answer; each input runs in a child process, so a crash
// or a hang fails the file that caused it instead of the whole run.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "fuzz_support.hpp"
#include "parser_results.hpp"

namespace famspec::fuzz {

// outcome: the answer's class; fragment: part of the error message, or for values a property of the
// value (plan, resolution, option: part of it). The value answers of elf, tables and loader are
// compared whole: the build id and table size, the counts of what was staged or claimed.
struct Expected {
    const char* outcome;
    const char* fragment;
};

// Runs every corpus file of one parser and checks its answer; `parse` turns file bytes into an answer.
template <class Parse>
void replay(const std::string& parser, const std::map<std::string, Expected>& expected, Parse parse) {
    const std::string directory = famspec::fuzz::corpus_dir(parser);
    const auto names = famspec::fuzz::files_in(directory);
    std::set<std::string> listed;
    for (const auto& [name, _] : expected) listed.insert(name);
    for (const auto& name : names) {
        CAPTURE(name);
        CHECK_MESSAGE(listed.count(name) == 1, "a corpus file without an expected outcome");
        listed.erase(name);
        const auto found = expected.find(name);
        if (found == expected.end()) continue;
        const std::string path = directory + "/" + name;
        const ChildOutcome child = famspec::fuzz::run_isolated(
            [&](famspec::fuzz::Channel& channel) {
                channel.working_on(parser + "/" + name);
                std::string violation;
                const Answer answer = parse(path, violation);
                channel.send(violation + '\0' + answer.encode());
            },
            kHangLimit);
        if (child.kind != ChildOutcome::Kind::finished) {
            FAIL_CHECK(parser << "/" << name << ": the parser " << child.describe() << " (after " << child.seconds
                              << " s); expected " << std::string(found->second.outcome) << " '"
                              << std::string(found->second.fragment) << "'");
            continue;
        }
        const std::size_t split = child.output.find('\0');
        REQUIRE(split != std::string::npos);
        const std::string violation = child.output.substr(0, split);
        const Answer answer = Answer::decode(child.output.substr(split + 1));
        const std::string expected_outcome = found->second.outcome;
        const std::string fragment = found->second.fragment;
        const bool exact = (parser == "elf" || parser == "tables" || parser == "loader") && answer.outcome != "error";
        const bool matches = answer.outcome == expected_outcome &&
                             (exact ? answer.detail == fragment : answer.detail.find(fragment) != std::string::npos);
        CHECK_MESSAGE(matches, parser << "/" << name << ": expected " << expected_outcome << " '" << fragment
                                      << "', got " << answer.outcome << " '" << answer.detail.substr(0, 300) << "' at "
                                      << answer.line << ":" << answer.column);
        CHECK_MESSAGE(violation.empty(), parser << "/" << name << ": " << violation);
    }
    for (const auto& name : listed) FAIL_CHECK("expected outcome for a missing corpus file: " << name);
}

}  // namespace famspec::fuzz
