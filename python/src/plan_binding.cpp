// famspec._native.Plan and the plan readers. A reader returns {"plan": Plan or None, "errors": [...]};
// a bad plan's errors are {file, line, column, message} each, every error in file order, which the
// package raises as famspec.PlanError.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/plan_keys.hpp"

namespace famspec::python {
namespace {

py::dict parse_result(PlanParse parsed) {
    py::dict out;
    py::list errors;
    if (!parsed) {
        for (const PlanError& error : parsed.error().errors) {
            py::dict item;
            item["file"] = error.file;
            item["line"] = error.location.line;
            item["column"] = error.location.column;
            item["message"] = error.message;
            errors.append(std::move(item));
        }
        out["plan"] = py::none();
    } else {
        out["plan"] = py::cast(PlanHandle{std::make_shared<const Plan>(std::move(*parsed))});
    }
    out["errors"] = std::move(errors);
    return out;
}

py::dict target_of(std::string_view slot, const Target& target, const std::optional<std::string>& module_type) {
    py::dict options;
    for (const auto& [name, value] : target.options) options[py::str(name)] = to_python(value);
    py::dict out;
    out["slot"] = slot;
    out["target"] = target.path;
    out["options"] = std::move(options);
    out["module_type"] = module_type;
    out["line"] = target.location.line;
    out["column"] = target.location.column;
    return out;
}

// {slot, target, options, module_type, line, column} per target, in plan order.
py::list targets_of(const PlanHandle& handle) {
    py::list out;
    for (const PlanEntry& entry : handle.plan->entries) {
        if (entry.replace_module) out.append(target_of("replace_module", *entry.replace_module, entry.module_type));
        if (entry.local_compute_fn)
            out.append(target_of("local_compute_fn", *entry.local_compute_fn, entry.module_type));
        if (entry.inner_wrapper) out.append(target_of("inner_wrapper", *entry.inner_wrapper, entry.module_type));
    }
    return out;
}

py::object target_dict(const std::optional<Target>& target) {
    if (!target) return py::none();
    py::dict out;
    out["_target_"] = target->path;
    for (const auto& [name, value] : target->options) out[py::str(name)] = to_python(value);
    return out;
}

// Each entry as the keys famspec reads from it, in plan order: match (a list), when, module_type,
// exact_type, inner_target (None when absent) and each slot's target as {"_target_": path, **options}.
py::list entries_of(const PlanHandle& handle) {
    py::list out;
    for (const PlanEntry& entry : handle.plan->entries) {
        py::dict row;
        row["match"] = py::list(py::cast(entry.match));
        row["when"] = py::cast(entry.when);
        row["module_type"] = py::cast(entry.module_type);
        row["exact_type"] = py::cast(entry.exact_type);
        row["inner_target"] = py::cast(entry.inner_target);
        row["replace_module"] = target_dict(entry.replace_module);
        row["local_compute_fn"] = target_dict(entry.local_compute_fn);
        row["inner_wrapper"] = target_dict(entry.inner_wrapper);
        row["line"] = entry.location.line;
        row["column"] = entry.location.column;
        out.append(std::move(row));
    }
    return out;
}

// {file, line, column, message, suggestion, refuses} per warning, in file order: refuses marks a near
// miss of a slot key, which parse_plan raises as the commands refuse it.
py::list warnings_of(const PlanHandle& handle) {
    py::list out;
    for (const PlanWarning& warning : handle.plan->warnings) {
        py::dict row;
        row["file"] = warning.file;
        row["line"] = warning.location.line;
        row["column"] = warning.location.column;
        row["message"] = warning.message;
        row["suggestion"] = warning.suggestion;
        row["refuses"] = refuses_plan(warning);
        out.append(std::move(row));
    }
    return out;
}

// The reader's word on a key of an override record that is no YAML: None for a key it reads, else
// {message, suggestion, refuses} with the warning's text.
py::object entry_key_word(std::string_view key) {
    const auto word = unread_entry_key(key);
    if (!word) return py::none();
    py::dict out;
    out["message"] = word->warning();
    out["suggestion"] = word->suggestion;
    out["refuses"] = word->drops_target;
    return out;
}

}  // namespace

void bind_plan(py::module_& module) {
    py::class_<PlanHandle>(module, "Plan")
        .def_property_readonly("file", [](const PlanHandle& h) { return h.plan->file; })
        .def_property_readonly("model_type", [](const PlanHandle& h) { return h.plan->model_type; })
        .def_property_readonly("architecture", [](const PlanHandle& h) { return h.plan->architecture; })
        .def_property_readonly("model_target", [](const PlanHandle& h) { return h.plan->model_target; })
        .def_property_readonly("targets", &targets_of)
        .def_property_readonly("entries", &entries_of)
        .def_property_readonly("reads_family", [](const PlanHandle& h) { return plan_reads_family(*h.plan); })
        .def_property_readonly("warnings", &warnings_of);

    module.def("unread_entry_key", &entry_key_word);
    module.def("plan_refusal_reason", &plan_refusal_reason);

    module.def("parse_plan_file", [](const std::string& path) {
        PlanParse parsed = [&] {
            const py::gil_scoped_release release;
            return parse_plan_file(path);
        }();
        return parse_result(std::move(parsed));
    });
    module.def("parse_plan_text", [](const std::string& text, const std::string& file_name) {
        PlanParse parsed = [&] {
            const py::gil_scoped_release release;
            return parse_plan_text(text, file_name);
        }();
        return parse_result(std::move(parsed));
    });
}

}  // namespace famspec::python
