#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>

#include "bindings.hpp"
#include "famspec/names.hpp"

namespace famspec::python {
namespace {

py::tuple strings(const std::vector<std::string>& items) {
    py::tuple out(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) out[i] = py::str(items[i]);
    return out;
}

py::object optional_string(const std::optional<std::string>& text) {
    return text ? py::object(py::str(*text)) : py::object(py::none());
}

py::tuple imports_of(const std::vector<ImportPatch>& imports) {
    py::tuple out(imports.size());
    for (std::size_t i = 0; i < imports.size(); ++i)
        out[i] = py::make_tuple(imports[i].module, strings(imports[i].names), optional_string(imports[i].raw));
    return out;
}

py::tuple snippets_of(const std::vector<ModuleSnippetPatch>& snippets) {
    py::tuple out(snippets.size());
    for (std::size_t i = 0; i < snippets.size(); ++i) out[i] = py::str(snippets[i].text);
    return out;
}

PyLiteral literal_from(const std::string& name, const py::handle& value) {
    if (value.is_none()) return none;
    // bool before int: in Python, True is an int.
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
    if (py::isinstance<py::int_>(value)) {
        const long long number = PyLong_AsLongLong(value.ptr());
        if (number == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            throw py::value_error("option '" + name + "': integer out of the 64-bit range");
        }
        return std::int64_t{number};
    }
    if (py::isinstance<py::float_>(value)) {
        const double number = value.cast<double>();
        if (!std::isfinite(number)) throw py::value_error("option '" + name + "': a float option must be finite");
        return number;
    }
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    throw py::type_error("option '" + name + "': expected None, bool, int, float or str, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

}  // namespace

Options options_from(const py::handle& mapping) {
    Options options;
    if (mapping.is_none()) return options;
    if (!py::isinstance<py::dict>(mapping)) throw py::type_error("options must be a dict");
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(mapping)) {
        if (!py::isinstance<py::str>(key))
            throw py::type_error("option names must be str, got " +
                                 std::string(py::str(py::type::handle_of(key).attr("__name__"))));
        const auto name = key.cast<std::string>();
        options.emplace(name, literal_from(name, value));
    }
    return options;
}

py::object to_python(const PyLiteral& literal) {
    return std::visit(
        [](const auto& value) -> py::object {
            using V = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<V, PyNone>) {
                return py::none();
            } else {
                return py::cast(value);
            }
        },
        literal.value());
}

py::tuple to_python(const ReplacementSpec& spec) {
    return py::make_tuple(spec.old_ctor, spec.new_ctor, imports_of(spec.imports), name_of(spec.mode),
                          strings(spec.keyword_args), snippets_of(spec.snippets), spec.remove_class,
                          optional_string(spec.replacement_note));
}

py::tuple to_python(const StrategySpec& spec) {
    return py::make_tuple(spec.kind, imports_of(spec.imports), optional_string(spec.target_class), spec.method_name,
                          optional_string(spec.body_template), snippets_of(spec.snippets),
                          strings(spec.strip_boundary_subpatterns));
}

py::object to_python(const std::shared_ptr<const std::string>& text) {
    return text ? py::object(py::str(*text)) : py::object(py::none());
}

py::object gap_or_none(Gap gap) {
    return gap == Gap::none ? py::object(py::none()) : py::object(py::str(std::string(name_of(gap))));
}

py::tuple to_python(const Explanation& e) {
    py::list declared;
    for (const DeclaredBy& d : e.declared_by) declared.append(py::make_tuple(d.role, d.name, d.plugin));
    return py::make_tuple(strings(e.spellings_tried), e.family, e.plugin, e.channel, e.cache_hit, e.rule,
                          py::tuple(declared));
}

py::list to_python(const std::vector<Diagnostic>& diagnostics) {
    py::list out;
    for (const Diagnostic& d : diagnostics) {
        out.append(py::make_tuple(std::string(name_of(d.kind)), d.message,
                                  d.suggestion.empty() ? py::object(py::none()) : py::object(py::str(d.suggestion))));
    }
    return out;
}

}  // namespace famspec::python
