// A whole plan, resolved: one entry per target in plan order, and the canonical bytes and digest
// that `famspec summary` prints.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/plan.hpp"
#include "famspec/resolution.hpp"
#include "famspec/resolver.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/specs.hpp"

namespace famspec {

// Canonical JSON of one spec (sorted keys, no whitespace), as it appears in the summary.
FAMSPEC_API std::string to_canonical_json(const ReplacementSpec& spec);
FAMSPEC_API std::string to_canonical_json(const StrategySpec& spec);

struct SummaryEntry {
    Slot slot = Slot::replace_module;
    std::string target;
    std::optional<std::string> module_type;
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::shared_ptr<const ReplacementSpec> replacement;  // slot replace_module, when resolved
    std::shared_ptr<const StrategySpec> strategy;        // strategy slots, when resolved
    std::string reason;
    std::optional<Gap> gap;  // when not covered
    SourceLocation location;
    std::vector<Diagnostic> diagnostics;
};

struct FAMSPEC_API DeclarationSummary {
    std::vector<SummaryEntry> entries;  // in plan order, nothing collapsed

    // {"entries":[...],"replacement_specs":{...},"strategy_specs":{...}}, canonical bytes. An entry
    // lists its diagnostics when it has any; the two spec maps never depend on them.
    std::string canonical_json() const;
    // "sha256:<64 hex>" over canonical_json().
    std::string digest() const;
};

}  // namespace famspec
