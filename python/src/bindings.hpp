// The pybind11 layer over the core, one file per bound concept. It stays thin: the core answers,
// this layer converts to plain Python values (tuples, str, None), and the pure-Python package
// builds the public classes from them. Every core call runs with the GIL released.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string_view>

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

// Static options from a Python mapping of str to None/bool/int/float/str; TypeError or ValueError
// naming the option otherwise.
Options options_from(const py::handle& mapping);
py::object to_python(const PyLiteral& literal);

// Specs as tuples in the field order of famspec.specs (the package builds the dataclasses).
py::tuple to_python(const ReplacementSpec& spec);
py::tuple to_python(const StrategySpec& spec);
py::object to_python(const std::shared_ptr<const std::string>& text);

py::object gap_or_none(Gap gap);
py::tuple to_python(const Explanation& explanation);
// (kind, message, suggestion) per diagnostic; suggestion is None when empty.
py::list to_python(const std::vector<Diagnostic>& diagnostics);

// (status, value, reason, gap, diagnostics, explanation), what famspec.Resolution is built from.
template <class T>
py::tuple to_python(const Resolution<T>& resolution) {
    py::object value = py::none();
    if (resolution.resolved()) {
        if constexpr (std::is_same_v<T, std::string>) {
            value = to_python(resolution->spec);
        } else {
            value = to_python(*resolution->spec);
        }
    }
    return py::make_tuple(name_of(resolution.status()), value, resolution.reason(), gap_or_none(resolution.gap()),
                          to_python(resolution.diagnostics()), to_python(*resolution.explanation));
}

}  // namespace famspec::python
