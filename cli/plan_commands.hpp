// famspec resolve | check | summary: one target, or every target of a plan.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "context.hpp"
#include "famspec/resolver.hpp"

namespace famspec::cli {

struct ResolveRequest {
    std::string target;
    std::optional<std::string> model_type;
    std::optional<std::string> module_type;
    std::string slot = "replace_module";
    std::vector<std::string> options;  // k=v, v read as a YAML scalar
    bool explain = false;
};

// One resolution, as resolve and resolve --batch report it.
struct ResolveAnswer {
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::string spec = "null";  // canonical JSON of the spec
    std::string reason;
    Gap gap = Gap::none;
    Explanation explanation;
};

std::optional<Slot> slot_from(const std::string& name);
// --option k=v: the value is read as a YAML scalar, exactly as it would be in a plan.
std::optional<Options> parse_options(const std::vector<std::string>& items, std::string& problem);
ResolveAnswer resolve_request(const Resolver& resolver, const ResolveRequest& request, Slot slot,
                              const Options& options);

int resolve_target(const Context& context, const ResolveRequest& request, std::ostream& out, std::ostream& err);
// allow_runtime_only: a target its family declares runtime-only is reported but is not a failure.
int check_plan(const Context& context, const std::string& plan, const std::optional<std::string>& model_type,
               bool allow_runtime_only, std::ostream& out, std::ostream& err);
int summarize_plan(const Context& context, const std::string& plan, const std::optional<std::string>& model_type,
                   bool digest_only, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
