#include "resolution/option_check.hpp"

#include <algorithm>
#include <array>

#include "famspec/nearest_names.hpp"
#include "famspec/python_text.hpp"
#include "famspec/resolver.hpp"

namespace famspec::detail {
namespace {

std::string_view kind_name(const PyLiteral& literal) {
    switch (literal.value().index()) {
        case 0:
            return "None";
        case 1:
            return "bool";
        case 2:
            return "int";
        case 3:
            return "float";
        default:
            return "str";
    }
}

Diagnostic ignored(const std::string& name, std::string_view owner, const std::vector<std::string>& declared,
                   std::string_view why) {
    std::string listed;
    for (const std::string& d : declared) listed += (listed.empty() ? "" : ", ") + d;
    const auto nearest = nearest_names(name, declared, 1);
    // The nearest declared option, else all of them; none when nothing is declared.
    std::optional<std::string> suggestion;
    if (!declared.empty()) suggestion = nearest.empty() ? listed : nearest.front();
    return Diagnostic{DiagnosticKind::ignored_option,
                      "option '" + name + "' is ignored: " + std::string(why) + "; " + std::string(owner) +
                          (declared.empty() ? " declares no options" : " declares: " + listed) + did_you_mean(nearest),
                      std::move(suggestion)};
}

// A value a Literal[...] type does not list: kept, as the reference passes it on, with the values
// that are allowed.
std::optional<Diagnostic> outside_allowed(const Parameter& parameter, const PyLiteral& value, std::string_view owner) {
    if (parameter.allowed.empty()) return std::nullopt;
    if (std::find(parameter.allowed.begin(), parameter.allowed.end(), value) != parameter.allowed.end()) {
        return std::nullopt;
    }
    std::string listed;
    for (const PyLiteral& allowed : parameter.allowed) listed += (listed.empty() ? "" : ", ") + to_python(allowed);
    return Diagnostic{DiagnosticKind::disallowed_value,
                      "option '" + parameter.name + "' is " + to_python(value) + ", not one of the values " +
                          std::string(owner) + " allows: " + listed,
                      listed};
}

}  // namespace

bool is_runtime_argument(std::string_view name) {
    static constexpr std::array<std::string_view, 3> kRuntimeArguments = {"module", "module_fqn", "context"};
    return std::find(kRuntimeArguments.begin(), kRuntimeArguments.end(), name) != kRuntimeArguments.end();
}

std::optional<std::string> option_type_mismatch(const Parameter& parameter, const PyLiteral& option) {
    if (parameter.default_value.kind() != Default::Kind::literal) return std::nullopt;
    const PyLiteral& fallback = parameter.default_value.literal_value();
    if (fallback.is_none() || option.is_none()) return std::nullopt;
    const auto expected = kind_name(fallback);
    const auto found = kind_name(option);
    if (expected == found || (expected == "float" && found == "int")) return std::nullopt;
    return "option '" + parameter.name + "' expects " + std::string(expected) + " (default " + to_python(fallback) +
           "), got " + std::string(found) + " " + to_python(option);
}

OptionCheck check_options(std::span<const Parameter> declared, const Options& options, std::string_view owner) {
    OptionCheck check;
    std::vector<std::string> names;
    for (const Parameter& p : declared) {
        if (!is_runtime_argument(p.name)) names.push_back(p.name);
    }
    for (const auto& [name, value] : options) {
        if (is_runtime_argument(name)) {
            check.diagnostics.push_back(ignored(name, owner, names, "the runtime supplies it"));
            continue;
        }
        // An init-capture: clang before 16 cannot capture a structured binding directly.
        const auto it = std::find_if(declared.begin(), declared.end(),
                                     [&option = name](const auto& p) { return p.name == option; });
        if (it == declared.end()) {
            check.diagnostics.push_back(ignored(name, owner, names, "it is not declared"));
            continue;
        }
        if (auto mismatch = option_type_mismatch(*it, value)) {
            if (!check.mismatch) check.mismatch = std::move(mismatch);
            continue;
        }
        if (auto outside = outside_allowed(*it, value, owner)) check.diagnostics.push_back(std::move(*outside));
        check.kept.emplace(name, value);
    }
    return check;
}

}  // namespace famspec::detail
