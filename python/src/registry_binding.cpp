// famspec._native.load_plugins and famspec._native.Registry: the frozen registry and its plugin records.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "famspec/family_suggestions.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry.hpp"
#include "famspec/registry_description.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/search_path.hpp"

namespace famspec::python {
namespace {

// Forwards core log lines to a Python callable. The core calls it without the GIL; the first exception
// the callable raises is kept and re-raised once loading is over, so the core never sees it.
class PythonLog {
public:
    explicit PythonLog(py::handle callable) : callable_(callable.ptr()) {}

    LogCallback callback() {
        if (callable_ == Py_None) return {};
        return [this](LogLevel level, std::string_view message) {
            py::gil_scoped_acquire acquire;
            if (failure_) return;
            try {
                const py::handle callable(callable_);
                callable(name_of(level), py::str(message.data(), message.size()));
            } catch (py::error_already_set& error) {
                failure_ = std::move(error);
            }
        };
    }

    void rethrow() {
        if (failure_) throw std::move(*failure_);
    }

private:
    PyObject* callable_;  // borrowed: the caller's argument outlives the load
    std::optional<py::error_already_set> failure_;
};

RegistryHandle load(const std::vector<std::string>& explicit_paths, const std::optional<std::string>& environment,
                    const std::string& default_directory, const py::object& log) {
    PythonLog python_log(log);
    std::shared_ptr<const Registry> registry;
    {
        py::gil_scoped_release release;
        const SearchPath search = plugin_search_path(explicit_paths, environment, default_directory);
        registry = load_plugins(load_options_for(search, python_log.callback()));
    }
    python_log.rethrow();
    return RegistryHandle{std::move(registry)};
}

py::list family_names(const PluginRecord& record) {
    py::list out;
    if (record.manifest)
        for (const ManifestFamily& family : record.manifest->families) out.append(family.model_type);
    return out;
}

// The fields `famspec list --json` writes for a record, with the same status and stage names.
py::dict record_dict(const PluginRecord& record) {
    const PluginManifest* manifest = record.manifest ? &*record.manifest : nullptr;
    py::dict out;
    out["name"] = manifest ? manifest->name : "";
    out["version"] = manifest ? manifest->version : "";
    out["abi"] = manifest ? std::to_string(manifest->abi_major) + "." + std::to_string(manifest->abi_minor) : "";
    out["path"] = record.path;
    out["paths"] = py::tuple(py::cast(record.paths));
    out["build_id"] = record.build_id;
    out["families"] = py::tuple(family_names(record));
    out["status"] = record.ok() ? "ok" : "error";
    out["stage"] = record.error ? py::object(py::str(std::string(name_of(record.error->stage)))) : py::none();
    out["message"] = record.error ? record.error->message : "";
    out["notes"] = py::tuple(py::cast(record.notes));
    return out;
}

}  // namespace

void bind_registry(py::module_& module) {
    py::class_<RegistryHandle> registry(module, "Registry");
    registry.def_property_readonly("generation", [](const RegistryHandle& h) { return h.registry->generation(); })
        .def_property_readonly("all_ok", [](const RegistryHandle& h) { return h.registry->all_ok(); })
        .def_property_readonly("plugins",
                               [](const RegistryHandle& h) {
                                   py::list out;
                                   for (const PluginRecord& record : h.registry->plugins())
                                       out.append(record_dict(record));
                                   return out;
                               })
        .def("describe",
             [](const RegistryHandle& h) {
                 py::gil_scoped_release release;
                 return describe_registry_json(*h.registry);
             })
        // None when a loaded plugin registers the name (any spelling), else why not, with the nearest names.
        .def("unknown_family",
             [](const RegistryHandle& h, const std::string& name) -> std::optional<std::string> {
                 if (h.registry->find_family(name) != nullptr) return std::nullopt;
                 return unknown_family_message(*h.registry, name);
             })
        .def_property_readonly("families", [](const RegistryHandle& h) {
            py::list out;
            for (const RegisteredFamily& family : h.registry->families()) out.append(family->model_type);
            return out;
        });

    bind_snapshot(module, registry);
    module.def("load_plugins", &load, py::arg("explicit_paths"), py::arg("environment"), py::arg("default_directory"),
               py::arg("log"));
}

}  // namespace famspec::python
