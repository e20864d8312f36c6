// famspec._native.Summary: a plan's declaration summary, with the canonical bytes and digest the CLI prints.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/digest.hpp"
#include "famspec/names.hpp"
#include "famspec/resolver.hpp"

namespace famspec::python {
namespace {

// Immutable once built, so any thread may read it.
struct SummaryHandle {
    DeclarationSummary summary;
    std::string canonical_json;
    std::string digest;
};

py::object value_of(const SummaryEntry& entry) {
    if (entry.replacement) return to_python(*entry.replacement);
    if (entry.strategy) return to_python(*entry.strategy);
    return py::none();
}

// {slot, target, module_type, status, value, reason, gap, line, column, diagnostics} per entry, in plan order.
py::list entries_of(const SummaryHandle& h) {
    py::list out;
    for (const SummaryEntry& entry : h.summary.entries) {
        py::dict item;
        item["slot"] = std::string(name_of(entry.slot));
        item["target"] = entry.target;
        item["module_type"] = entry.module_type;
        item["status"] = std::string(name_of(entry.status));
        item["value"] = value_of(entry);
        item["reason"] = entry.reason;
        item["gap"] = gap_or_none(entry.gap);
        item["line"] = entry.location.line;
        item["column"] = entry.location.column;
        item["diagnostics"] = to_python(entry.diagnostics);
        out.append(std::move(item));
    }
    return out;
}

}  // namespace

py::object make_summary(DeclarationSummary summary) {
    SummaryHandle handle;
    {
        py::gil_scoped_release release;
        handle.canonical_json = summary.canonical_json();
        handle.digest = sha256_digest(handle.canonical_json);
        handle.summary = std::move(summary);
    }
    return py::cast(std::move(handle));
}

void bind_summary(py::module_& module) {
    py::class_<SummaryHandle>(module, "Summary")
        .def("canonical_json", [](const SummaryHandle& h) { return h.canonical_json; })
        .def("digest", [](const SummaryHandle& h) { return h.digest; })
        .def_property_readonly("entries", &entries_of);
}

}  // namespace famspec::python
