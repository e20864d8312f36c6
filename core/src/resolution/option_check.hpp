// The one check every channel runs on a target's static options: declared options are kept for
// rendering, undeclared ones are ignored with a diagnostic (as the reference ignores every static
// option), and a declared option of the wrong type stops resolution.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/parameter.hpp"
#include "famspec/plan.hpp"
#include "famspec/resolution.hpp"

namespace famspec::detail {

struct OptionCheck {
    Options kept;                         // the declared options, in name order
    std::vector<Diagnostic> diagnostics;  // ignored_option for each undeclared option, disallowed_value for a
                                          // value outside the option's declared Literal[...] values
    std::optional<std::string> mismatch;  // a declared option whose value has the wrong type
};

// declared: the parameters a plan may set. owner: what declares them, for messages ("factory a.b.f").
OptionCheck check_options(std::span<const Parameter> declared, const Options& options, std::string_view owner);

// Why a static option does not fit the parameter it names, or empty: a declared literal default
// fixes the kind (bool, int, float, str) the option must have.
std::optional<std::string> option_type_mismatch(const Parameter& parameter, const PyLiteral& option);

// module, module_fqn and context: passed by the runtime on every replacement, never by a plan.
bool is_runtime_argument(std::string_view name);

}  // namespace famspec::detail
