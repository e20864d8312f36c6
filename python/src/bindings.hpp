// The pybind11 layer over the core, one file per bound concept. It stays thin: the core answers,
// this layer converts to plain Python values (dicts keyed by field name, tuples of values, str,
// None), and the pure-Python package builds the public classes from them. No result crosses as a
// positional tuple; python/famspec/_native.pyi describes each dict. Every core call runs with the
// GIL released.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "famspec/explanation.hpp"
#include "famspec/names.hpp"
#include "famspec/plan.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"
#include "famspec/specs.hpp"

namespace famspec::python {

namespace py = pybind11;

void bind_plan(py::module_& module);
void bind_registry(py::module_& module);
void bind_resolver(py::module_& module);
void bind_summary(py::module_& module);
void bind_family_keys(py::module_& module);

// The frozen registry; every object handed out keeps the plugin libraries it came from alive.
struct RegistryHandle {
    std::shared_ptr<const Registry> registry;
};

// A parsed plan, shared by every Python object that refers to it.
struct PlanHandle {
    std::shared_ptr<const Plan> plan;
};

// Adds snapshot() to the registry class bound by bind_registry.
void bind_snapshot(py::module_& module, py::class_<RegistryHandle>& registry);

// The most options one call may give: a target's static options are a handful, and a call of a
// million would take seconds and gigabytes. famspec._native.MAX_OPTIONS_PER_CALL.
inline constexpr std::size_t kMaxOptionsPerCall = 1024;

// A str argument as UTF-8: TypeError when it is no str, ValueError naming `what` when it holds a lone
// surrogate (U+D800..U+DFFF, as os.fsdecode makes of undecodable bytes), which has no UTF-8 form.
std::string utf8_argument(const py::handle& text, const std::string& what);
// The same for an argument that may be None.
std::optional<std::string> optional_utf8_argument(const py::handle& text, const std::string& what);

// Static options from a Python mapping of str to None/bool/int/float/str, at most kMaxOptionsPerCall
// of them; TypeError or ValueError naming the option otherwise.
Options options_from(const py::handle& mapping);
py::object to_python(const PyLiteral& literal);

// Specs as dicts keyed by the field names of famspec.specs (the package builds the dataclasses);
// imports and snippets as dicts too.
py::dict to_python(const ReplacementSpec& spec);
py::dict to_python(const StrategySpec& spec);

py::object gap_or_none(const std::optional<Gap>& gap);
py::dict to_python(const Explanation& explanation);
// {kind, message, suggestion} per diagnostic; suggestion is None when there is none.
py::list to_python(const std::vector<Diagnostic>& diagnostics);

// {status, value, reason, gap, diagnostics, explanation}, what famspec.Resolution is built from:
// value is the spec when resolved, else None.
template <class T>
py::dict to_python(const Resolution<T>& resolution) {
    py::object value = py::none();
    if (const Resolved<T>* resolved = resolution.resolved()) {
        if constexpr (std::is_same_v<T, std::string>) {
            value = py::str(*resolved->spec);
        } else {
            value = to_python(*resolved->spec);
        }
    }
    py::dict out;
    out["status"] = std::string(name_of(resolution.status()));
    out["value"] = std::move(value);
    out["reason"] = resolution.reason();
    out["gap"] = gap_or_none(resolution.gap());
    out["diagnostics"] = to_python(resolution.diagnostics);
    out["explanation"] = to_python(*resolution.explanation);
    return out;
}

}  // namespace famspec::python
