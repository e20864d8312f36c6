// famspec resolve | check | summary: one target, or every target of a plan.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "context.hpp"

namespace famspec::cli {

struct ResolveRequest {
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
};

int resolve_target(const Context& context, const ResolveRequest& request, std::ostream& out, std::ostream& err);
int check_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);
int summarize_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
