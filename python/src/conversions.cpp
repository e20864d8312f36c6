#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <cstdio>
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
    for (std::size_t i = 0; i < imports.size(); ++i) {
        py::dict patch;
        patch["module"] = imports[i].module;
        patch["names"] = strings(imports[i].names);
        patch["raw"] = optional_string(imports[i].raw);
        out[i] = std::move(patch);
    }
    return out;
}

py::tuple snippets_of(const std::vector<ModuleSnippetPatch>& snippets) {
    py::tuple out(snippets.size());
    for (std::size_t i = 0; i < snippets.size(); ++i) {
        py::dict snippet;
        snippet["text"] = snippets[i].text;
        out[i] = std::move(snippet);
    }
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
    if (py::isinstance<py::str>(value)) return utf8_argument(value, "option '" + name + "'");
    throw py::type_error("option '" + name + "': expected None, bool, int, float or str, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

std::string type_name(const py::handle& value) {
    return std::string(py::str(py::type::handle_of(value).attr("__name__")));
}

}  // namespace

std::string utf8_argument(const py::handle& text, const std::string& what) {
    if (!py::isinstance<py::str>(text)) throw py::type_error(what + " must be str, got " + type_name(text));
    Py_ssize_t size = 0;
    const char* bytes = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (bytes != nullptr) return std::string(bytes, static_cast<std::size_t>(size));
    PyErr_Clear();
    // Only a surrogate makes the encoding fail: find the first, for the message.
    const Py_ssize_t length = PyUnicode_GetLength(text.ptr());
    Py_ssize_t at = 0;
    while (at < length && !Py_UNICODE_IS_SURROGATE(PyUnicode_ReadChar(text.ptr(), at))) ++at;
    const Py_UCS4 surrogate = at < length ? PyUnicode_ReadChar(text.ptr(), at) : 0;
    std::array<char, 8> code{};
    std::snprintf(code.data(), code.size(), "%04X", static_cast<unsigned>(surrogate));
    throw py::value_error(what + " holds a lone surrogate (U+" + code.data() + " at index " + std::to_string(at) +
                          "), which has no UTF-8 form");
}

std::optional<std::string> optional_utf8_argument(const py::handle& text, const std::string& what) {
    if (text.is_none()) return std::nullopt;
    return utf8_argument(text, what);
}

Options options_from(const py::handle& mapping) {
    Options options;
    if (mapping.is_none()) return options;
    if (!py::isinstance<py::dict>(mapping)) throw py::type_error("options must be a dict");
    const auto given = static_cast<std::size_t>(PyDict_Size(mapping.ptr()));
    if (given > kMaxOptionsPerCall) {
        throw py::value_error("options: " + std::to_string(given) + " of them, more than the " +
                              std::to_string(kMaxOptionsPerCall) + " one call may give");
    }
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(mapping)) {
        if (!py::isinstance<py::str>(key)) throw py::type_error("option names must be str, got " + type_name(key));
        const std::string name = utf8_argument(key, "option name " + std::string(py::repr(key)));
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

py::dict to_python(const ReplacementSpec& spec) {
    py::dict out;
    out["old_ctor"] = spec.old_ctor;
    out["new_ctor"] = spec.new_ctor;
    out["imports"] = imports_of(spec.imports);
    out["mode"] = std::string(name_of(spec.mode));
    out["keyword_args"] = strings(spec.keyword_args);
    out["snippets"] = snippets_of(spec.snippets);
    out["remove_class"] = spec.remove_class;
    out["replacement_note"] = optional_string(spec.replacement_note);
    return out;
}

py::dict to_python(const StrategySpec& spec) {
    py::dict out;
    out["kind"] = spec.kind;
    out["imports"] = imports_of(spec.imports);
    out["target_class"] = optional_string(spec.target_class);
    out["method_name"] = spec.method_name;
    out["body_template"] = optional_string(spec.body_template);
    out["snippets"] = snippets_of(spec.snippets);
    out["strip_boundary_subpatterns"] = strings(spec.strip_boundary_subpatterns);
    return out;
}

py::object to_python(const std::shared_ptr<const std::string>& text) {
    return text ? py::object(py::str(*text)) : py::object(py::none());
}

py::object gap_or_none(Gap gap) {
    return gap == Gap::none ? py::object(py::none()) : py::object(py::str(std::string(name_of(gap))));
}

py::dict to_python(const Explanation& e) {
    py::list declared;
    for (const DeclaredBy& d : e.declared_by) {
        py::dict by;
        by["role"] = d.role;
        by["name"] = d.name;
        by["plugin"] = d.plugin;
        declared.append(std::move(by));
    }
    py::dict out;
    out["spellings_tried"] = strings(e.spellings_tried);
    out["family"] = e.family;
    out["plugin"] = e.plugin;
    out["channel"] = e.channel;
    out["cache_hit"] = e.cache_hit;
    out["rule"] = e.rule;
    out["declared_by"] = py::tuple(declared);
    return out;
}

py::list to_python(const std::vector<Diagnostic>& diagnostics) {
    py::list out;
    for (const Diagnostic& d : diagnostics) {
        py::dict diagnostic;
        diagnostic["kind"] = std::string(name_of(d.kind));
        diagnostic["message"] = d.message;
        diagnostic["suggestion"] = d.suggestion.empty() ? py::object(py::none()) : py::object(py::str(d.suggestion));
        out.append(std::move(diagnostic));
    }
    return out;
}

}  // namespace famspec::python
