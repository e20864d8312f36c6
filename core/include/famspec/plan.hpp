// A training plan's plan_overrides, read from YAML and checked before anything is resolved.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "famspec/sdk/export.hpp"
#include "famspec/sdk/py_literal.hpp"

namespace famspec {

// Static options written next to a target's path, by name.
using Options = std::map<std::string, PyLiteral, std::less<>>;

struct SourceLocation {
    std::size_t line = 0;  // 1-based
    std::size_t column = 0;
};

// A `_target_` (or `target`) path with its static options, or a bare string path.
struct Target {
    std::string path;
    Options options;
    SourceLocation location;
};

struct PlanEntry {
    std::vector<std::string> match;
    std::optional<std::string> when;
    std::optional<std::string> module_type;
    std::optional<bool> exact_type;
    std::optional<Target> replace_module;
    std::optional<Target> local_compute_fn;
    std::optional<std::string> inner_target;
    std::optional<Target> inner_wrapper;
    SourceLocation location;
};

struct Plan {
    std::string file;
    std::optional<std::string> model_type;
    std::optional<std::string> architecture;
    std::vector<PlanEntry> entries;
};

struct FAMSPEC_API PlanError {
    std::string file;
    SourceLocation location;
    std::string message;  // what was expected and what was found

    std::string to_string() const;  // "file:line:column: message"
};

struct PlanLimits {
    std::size_t max_bytes = std::size_t{4} << 20;
    std::size_t max_depth = 32;
    std::size_t max_entries = 10000;
    std::size_t max_nodes = 1000000;  // after YAML aliases are followed
};

struct PlanParse {
    std::optional<Plan> plan;
    std::optional<PlanError> error;
};

// The family a plan's targets are resolved for: an explicit model_type, else the plan's own model_type,
// else its architecture; empty means each target's family is inferred from its path.
FAMSPEC_API std::optional<std::string> effective_model_type(const Plan& plan,
                                                            const std::optional<std::string>& model_type);

FAMSPEC_API PlanParse parse_plan_file(const std::string& path, const PlanLimits& limits = {});
FAMSPEC_API PlanParse parse_plan_text(const std::string& text, const std::string& file_name,
                                      const PlanLimits& limits = {});

}  // namespace famspec
