// Where a plan comes from: a file, or stdin for "-"; and how a plan error is reported.
#pragma once

#include <string>

#include "context.hpp"
#include "famspec/plan.hpp"

namespace famspec::cli {

inline constexpr const char* kStdinPlanName = "<stdin>";

// parse_plan_file, or for "-" the plan read from stdin (named <stdin> in messages). strict: an
// unread plan key is an error.
PlanParse read_plan(const std::string& path, bool strict = false);

// A plan error with its file, line and column, for Context::fail.
CliError plan_error(const PlanError& error);
// Reports every error of a plan that did not parse, in file order; returns the usage exit code.
// With --json: {"error": <the first>, "errors": [<all>], "stopped_early": bool} on stdout.
int fail_plan(const Context& context, const PlanParse& parsed, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
