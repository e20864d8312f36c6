// famspec._native: Registry.snapshot(), and the comparisons of two snapshots and of two summaries.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "famspec/snapshot.hpp"
#include "famspec/summary_diff.hpp"

namespace famspec::python {

void bind_snapshot(py::module_& module, py::class_<RegistryHandle>& registry) {
    registry.def("snapshot", [](const RegistryHandle& h) {
        py::gil_scoped_release release;
        return h.registry->snapshot();
    });
    // (error or None, [difference...]) from the stored snapshot to the live one.
    module.def("compare_snapshots", [](const std::string& stored, const std::string& live) {
        SnapshotComparison comparison;
        {
            py::gil_scoped_release release;
            comparison = compare_snapshots(stored, live);
        }
        return py::make_tuple(comparison.error, comparison.differences);
    });
    // (error or None, [difference...]) from the old summary to the new one.
    module.def("compare_summaries", [](const std::string& old_summary, const std::string& new_summary) {
        SummaryComparison comparison;
        {
            py::gil_scoped_release release;
            comparison = compare_summaries(old_summary, new_summary);
        }
        return py::make_tuple(comparison.error, comparison.differences);
    });
}

}  // namespace famspec::python
