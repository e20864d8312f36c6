// A training plan's plan_overrides, read from YAML and checked before anything is resolved. The
// input may be a whole training config: plan_overrides, model_type, architecture, codegen and
// model._target_ are read, and every other top-level section is left alone.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/py_literal.hpp"
#include "famspec/sdk/export.hpp"

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

// Something in the plan famspec does not read, such as an entry key the runtime knows and the
// resolver does not. Under strict reading it is an error instead.
struct FAMSPEC_API PlanWarning {
    std::string file;
    SourceLocation location;
    std::string message;
    std::string suggestion;  // the nearest known name (a slot name: the target under it is dropped), or empty

    std::string to_string() const;  // "file:line:column: warning: message"
};

struct Plan {
    std::string file;
    std::optional<std::string> model_type;
    std::optional<std::string> architecture;
    std::optional<std::string> model_target;  // model._target_ of a training config
    std::vector<PlanEntry> entries;
    std::vector<PlanWarning> warnings;  // in file order
};

struct FAMSPEC_API PlanError {
    std::string file;
    SourceLocation location;
    std::string message;  // what was expected and what was found

    std::string to_string() const;  // "file:line:column: message"; "file: message" when the file is unread
};

struct PlanLimits {
    std::size_t max_bytes = std::size_t{4} << 20;
    std::size_t max_depth = 32;
    std::size_t max_entries = 10000;
    std::size_t max_nodes = 1000000;  // after YAML aliases are followed
    std::size_t max_errors = 20;      // errors reported at once; reading stops at the last
};

// Every error a reading found, in file order; never empty.
struct PlanErrors {
    std::vector<PlanError> errors;
    bool stopped_early = false;  // errors reached PlanLimits::max_errors: there may be more

    const PlanError& first() const { return errors.front(); }
};
using PlanParse = Expected<Plan, PlanErrors>;

// strict: an entry key famspec does not read is an error rather than a warning.
FAMSPEC_API PlanParse parse_plan_file(const std::string& path, const PlanLimits& limits = {}, bool strict = false);
FAMSPEC_API PlanParse parse_plan_text(const std::string& text, const std::string& file_name,
                                      const PlanLimits& limits = {}, bool strict = false);

}  // namespace famspec
