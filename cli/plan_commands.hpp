// famspec resolve | check | summary: one target, or every target of a plan.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "context.hpp"
#include "famspec/explanation.hpp"
#include "famspec/resolver.hpp"

namespace famspec::cli {

// The resolve command's flags as written; resolve_request turns them into a famspec::ResolveRequest.
struct ResolveFlags {
    std::string target;
    std::optional<std::string> model_type;
    std::optional<std::string> module_type;
    std::string slot = "replace_module";
    std::vector<std::string> options;  // k=v, v read as a YAML scalar
    std::optional<std::string> plan;   // a plan or training config whose family applies
    bool explain = false;
    bool strict = false;
};

// check and summary: the plan, the family that overrides its own, and how strictly to read it.
struct PlanRequest {
    std::string path;
    std::optional<std::string> model_type;
    bool strict = false;              // unread entry keys and every diagnostic fail
    bool allow_runtime_only = false;  // check: a runtime-only target is reported, not a failure
    bool digest_only = false;         // summary: print only the digest
    bool with_snapshot = false;       // summary: record the plugin-set snapshot digest (snapshot_digest)
};

// One resolution, as resolve and resolve --batch report it.
struct ResolveAnswer {
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::string spec = "null";  // canonical JSON of the spec
    std::string reason;
    Gap gap = Gap::none;
    Explanation explanation;
    std::vector<Diagnostic> diagnostics;
};

std::optional<Slot> slot_from(const std::string& name);
// --option k=v: the value is read as a YAML scalar, exactly as it would be in a plan.
std::optional<Options> parse_options(const std::vector<std::string>& items, std::string& problem);
ResolveAnswer resolve_request(const Resolver& resolver, const ResolveFlags& request, Slot slot, const Options& options);

int resolve_target(const Context& context, const ResolveFlags& request, std::ostream& out, std::ostream& err);
int check_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);
int summarize_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
