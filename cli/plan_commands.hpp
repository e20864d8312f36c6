// famspec resolve | check | summary: one target, or every target of a plan.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "context.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/explanation.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/resolver.hpp"

namespace famspec::cli {

// The resolve command's request: read into a ResolveRequest, with the text its slot and options are
// read from (its slot and options are set once that text is checked).
struct ResolveFlags : ResolveRequest {
    std::string slot_name = "replace_module";
    std::vector<std::string> option_items;  // k=v, v read as a YAML scalar
    std::optional<std::string> plan;        // a plan or training config whose family applies
    bool explain = false;
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

// The canonical JSON of a resolution's spec, or null when it has none.
template <class T>
std::string spec_json(const Resolution<T>& resolution) {
    const Resolved<T>* resolved = resolution.resolved();
    return resolved != nullptr ? to_canonical_json(*resolved->spec) : "null";
}

// Asks `request` of the entry point its slot calls for, and hands the Resolution to `use`.
template <class Use>
decltype(auto) resolve_request(const Resolver& resolver, const ResolveRequest& request, Use&& use) {
    if (request.slot == Slot::replace_module) return use(resolver.replacement_spec_for(request));
    return use(resolver.strategy_spec_for(request));
}

std::optional<Slot> slot_from(const std::string& name);
// --option k=v: the value is read as a YAML scalar, exactly as it would be in a plan.
std::optional<Options> parse_options(const std::vector<std::string>& items, std::string& problem);

// Reads a plan and notes on stderr what in it famspec does not read; nullopt after reporting an error,
// with `failure` its exit code: bad input, or a misspelt slot key, which would drop a target unseen.
std::optional<Plan> read_checked_plan(const Context& context, const std::string& path, bool strict, std::ostream& out,
                                      std::ostream& err, int& failure);
// Whether the family the targets are resolved for may be used: it is registered, or it was not named
// explicitly, or the targets do not read it, or --allow-partial. Otherwise refuse_unknown_family says why.
bool family_known(const Context& context, const PlanFamily& family, bool read, const Registry& registry);
int refuse_unknown_family(const Context& context, const PlanFamily& family, const Registry& registry, std::ostream& out,
                          std::ostream& err);
std::string diagnostic_line(const Diagnostic& d);

int resolve_target(const Context& context, ResolveFlags request, std::ostream& out, std::ostream& err);
int check_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);
int summarize_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
