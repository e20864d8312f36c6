// famspec._native: Registry.snapshot(), and the comparisons of two snapshots and of two summaries.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "famspec/snapshot.hpp"
#include "famspec/summary_diff.hpp"

namespace famspec::python {
namespace {

// {"error": str or None, "differences": [str...]}.
template <class Comparison>
py::dict comparison_of(const Comparison& comparison) {
    py::dict out;
    if (!comparison) {
        out["error"] = comparison.error();
        out["differences"] = py::list();
    } else {
        out["error"] = py::none();
        out["differences"] = py::cast(*comparison);
    }
    return out;
}

}  // namespace

void bind_snapshot(py::module_& module, py::class_<RegistryHandle>& registry) {
    registry.def("snapshot", [](const RegistryHandle& h) {
        py::gil_scoped_release release;
        return snapshot(*h.registry);
    });
    // {error, differences} from the stored snapshot to the live one.
    module.def("compare_snapshots", [](const std::string& stored, const std::string& live) {
        const SnapshotComparison comparison = [&] {
            const py::gil_scoped_release release;
            return compare_snapshots(stored, live);
        }();
        return comparison_of(comparison);
    });
    // {error, differences} from the old summary to the new one.
    module.def("compare_summaries", [](const std::string& old_summary, const std::string& new_summary) {
        const SummaryComparison comparison = [&] {
            const py::gil_scoped_release release;
            return compare_summaries(old_summary, new_summary);
        }();
        return comparison_of(comparison);
    });
}

}  // namespace famspec::python
