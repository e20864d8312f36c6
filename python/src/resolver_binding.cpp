// famspec._native.Resolver: the five queries (replacement, strategy, interface_component_class,
// external_state_classes, summary), each answered with the GIL released; the first two return the
// {status, value, reason, gap, diagnostics, explanation} dict famspec.Resolution is built from.
#include <pybind11/stl.h>

#include <stdexcept>

#include "bindings.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/names.hpp"
#include "famspec/resolver.hpp"

namespace famspec::python {
namespace {

struct ResolverHandle {
    std::shared_ptr<const Registry> registry;  // declared first: outlives the resolver
    std::shared_ptr<const Resolver> resolver;
    bool strict = false;  // every diagnostic makes the target not covered
};

Slot slot_from(const std::string& name) {
    if (const auto slot = from_name<Slot>(name)) return *slot;
    throw py::value_error("slot must be 'replace_module', 'local_compute_fn' or 'inner_wrapper', got '" + name + "'");
}

// The core call runs without the GIL; only the conversion to Python needs it.
template <class Call>
auto released(Call&& call) {
    py::gil_scoped_release release;
    return call();
}

// The str arguments arrive as Python objects: a lone surrogate in one is a ValueError naming it (see
// utf8_argument), where pybind11's own conversion would report only incompatible arguments.
py::dict replacement(const ResolverHandle& h, const py::handle& target, const py::handle& model_type,
                     const py::handle& module_type, const py::handle& options) {
    ResolveRequest request{.target = utf8_argument(target, "target"),
                           .model_type = optional_utf8_argument(model_type, "model_type"),
                           .slot = Slot::replace_module,
                           .module_type = optional_utf8_argument(module_type, "module_type"),
                           .options = options_from(options),
                           .strict = h.strict};
    return to_python(released([&] { return h.resolver->replacement_spec_for(request); }));
}

py::dict strategy(const ResolverHandle& h, const py::handle& target, const py::handle& model_type,
                  const std::string& slot, const py::handle& options) {
    ResolveRequest request{.target = utf8_argument(target, "target"),
                           .model_type = optional_utf8_argument(model_type, "model_type"),
                           .slot = slot_from(slot),
                           .module_type = std::nullopt,
                           .options = options_from(options),
                           .strict = h.strict};
    return to_python(released([&] { return h.resolver->strategy_spec_for(request); }));
}

py::dict interface_component_class(const ResolverHandle& h, const py::handle& model_type) {
    const std::string family = utf8_argument(model_type, "model_type");
    return to_python(released([&] { return h.resolver->interface_component_class(family); }));
}

// injections: {"target": local_compute_fn target or None, "options": dict or None} each.
std::vector<std::string> external_state_classes(const ResolverHandle& h, const py::handle& model_type,
                                                const py::list& injections) {
    const std::optional<std::string> family = optional_utf8_argument(model_type, "model_type");
    std::vector<Injection> parsed;
    for (const py::handle item : injections) {
        const auto injection = item.cast<py::dict>();
        parsed.push_back(
            Injection{optional_utf8_argument(injection["target"], "target"), options_from(injection["options"])});
    }
    return released([&] { return h.resolver->external_state_classes_for(family, parsed); });
}

}  // namespace

// Declared in summary_binding.cpp: the summary object returned by Resolver.summary.
py::object make_summary(DeclarationSummary summary);

void bind_resolver(py::module_& module) {
    module.def("target_reads_family", [](const std::string& slot, const py::handle& target) {
        return target_reads_family(slot_from(slot), utf8_argument(target, "target"));
    });
    module.attr("MAX_OPTIONS_PER_CALL") = kMaxOptionsPerCall;
    py::class_<ResolverHandle>(module, "Resolver")
        .def(py::init([](const RegistryHandle& registry, bool strict) {
                 return ResolverHandle{registry.registry, std::make_shared<const Resolver>(registry.registry), strict};
             }),
             py::arg("registry"), py::kw_only(), py::arg("strict") = false)
        .def("replacement", &replacement)
        .def("strategy", &strategy)
        .def("interface_component_class", &interface_component_class)
        .def("external_state_classes", &external_state_classes)
        .def("summary",
             [](const ResolverHandle& h, const PlanHandle& plan, const std::optional<std::string>& model_type) {
                 return make_summary(
                     released([&] { return h.resolver->declaration_summary(model_type, *plan.plan, h.strict); }));
             })
        .def("clear_cache", [](const ResolverHandle& h) { released([&] { h.resolver->clear_cache(); }); });
}

}  // namespace famspec::python
