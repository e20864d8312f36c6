// A plan answered from the plugins it touches (famspec/read_selection.hpp) against the same plan answered from
// every shipped plugin: the family, the summary's canonical bytes (every status, reason, diagnostic
// and spec that check and summary print) and what `famspec summary` prints must be the same bytes.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "famspec/declaration_summary.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/read_selection.hpp"
#include "famspec/resolver.hpp"
#include "process.hpp"
#include "registry_fixture.hpp"

namespace famspec::test {

struct PlanAnswers {
    PlanFamily family;
    std::string summary;            // canonical bytes
    bool within_selection = false;  // every entry resolved or native: the command keeps this load
};

inline PlanAnswers answer(const Plan& plan, std::shared_ptr<const Registry> registry) {
    PlanAnswers out{plan_family(plan, std::nullopt, *registry), {}, false};
    const DeclarationSummary summary = Resolver(std::move(registry)).declaration_summary(std::nullopt, plan, false);
    out.summary = summary.canonical_json();
    out.within_selection = std::all_of(summary.entries.begin(), summary.entries.end(), [](const SummaryEntry& e) {
        return e.status == ResolutionStatus::resolved || e.status == ResolutionStatus::native;
    });
    return out;
}

// Returns whether the selective load answered the plan itself (the command read no more).
inline bool check_selective_equals_full(const std::string& plan_path) {
    CAPTURE(plan_path);
    auto parsed = parse_plan_file(plan_path);
    REQUIRE(parsed.has_value());
    const Plan& plan = *parsed;
    LoadOptions options;
    options.directories = {plugin_dir()};
    const PlanAnswers full = answer(plan, shipped_registry());
    const PlanAnswers selective = answer(plan, load_plugins(options, read_selection(plan, std::nullopt)));
    if (selective.within_selection) {
        CHECK(selective.family.name == full.family.name);
        CHECK(selective.family.source == full.family.source);
        CHECK(selective.family.model_target_names_no_family == full.family.model_target_names_no_family);
        CHECK(selective.summary == full.summary);
    }
    // The command, selective by default, prints the full load's bytes either way.
    const auto printed = run_cli({"summary", plan_path});
    if (printed.exit_code == 0) CHECK(printed.out == full.summary + "\n");
    return selective.within_selection;
}

}  // namespace famspec::test
