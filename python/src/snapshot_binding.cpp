// famspec._native: Registry.snapshot(), and the comparisons of two snapshots and of two summaries.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "famspec/snapshot.hpp"
#include "famspec/summary_diff.hpp"

namespace famspec::python {

void bind_snapshot(py::module_& module, py::class_<RegistryHandle>& registry) {
    registry.def("snapshot", [](const RegistryHandle& h) {
        py::gil_scoped_release release;
        return snapshot(*h.registry);
    });
    // (error or None, [difference...]) from the stored snapshot to the live one.
    module.def("compare_snapshots", [](const std::string& stored, const std::string& live) {
        const SnapshotComparison comparison = [&] {
            const py::gil_scoped_release release;
            return compare_snapshots(stored, live);
        }();
        if (!comparison) return py::make_tuple(comparison.error(), py::list());
        return py::make_tuple(py::none(), *comparison);
    });
    // (error or None, [difference...]) from the old summary to the new one.
    module.def("compare_summaries", [](const std::string& old_summary, const std::string& new_summary) {
        const SummaryComparison comparison = [&] {
            const py::gil_scoped_release release;
            return compare_summaries(old_summary, new_summary);
        }();
        if (!comparison) return py::make_tuple(comparison.error(), py::list());
        return py::make_tuple(py::none(), *comparison);
    });
}

}  // namespace famspec::python
