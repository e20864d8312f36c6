// famspec._native.normalize_family_key and famspec._native.find_family: the registry's rule for a
// family's spellings, for the tools that look a family up in declarations or source rather than in
// a registry (famspec sync and audit).
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "bindings.hpp"
#include "famspec/family_keys.hpp"

namespace famspec::python {
namespace {

// A spelling's UTF-8 bytes, surrogates too (surrogatepass): a name may come from argv or a file name
// with undecodable bytes (os.fsdecode), and the key rule changes only ASCII bytes, so the key of such
// a name is decoded back the same way, with its other characters intact.
std::string spelling_bytes(const py::handle& text, const std::string& what) {
    if (!py::isinstance<py::str>(text)) return utf8_argument(text, what);  // its TypeError
    const auto bytes =
        py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass"));
    if (!bytes) throw py::error_already_set();
    return std::string(PyBytes_AS_STRING(bytes.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes.ptr())));
}

py::str spelling_text(const std::string& bytes) {
    PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "surrogatepass");
    if (text == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(text);
}

std::vector<std::string> names_of(const py::dict& family, const char* field, const std::string& what) {
    if (!family.contains(field)) throw py::value_error(what + ": no '" + field + "'");
    const py::object value = family[field];
    if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value))
        throw py::type_error(what + "['" + field + "'] must be a sequence of str");
    std::vector<std::string> out;
    std::size_t index = 0;
    for (const py::handle name : value) {
        out.push_back(spelling_bytes(name, what + "['" + field + "'][" + std::to_string(index++) + "]"));
    }
    return out;
}

// {model_type, architecture, aliases, directory_aliases} dicts, as _native.pyi's FamilyNamesFields.
std::vector<FamilyNames> families_from(const py::handle& families) {
    if (py::isinstance<py::str>(families) || !py::isinstance<py::sequence>(families))
        throw py::type_error("families must be a sequence of dicts");
    std::vector<FamilyNames> out;
    for (const py::handle item : families) {
        const std::string what = "families[" + std::to_string(out.size()) + "]";
        if (!py::isinstance<py::dict>(item)) throw py::type_error(what + " must be a dict");
        const auto family = py::reinterpret_borrow<py::dict>(item);
        for (const char* field : {"model_type", "architecture"}) {
            if (!family.contains(field)) throw py::value_error(what + ": no '" + field + "'");
        }
        out.push_back({spelling_bytes(family["model_type"], what + "['model_type']"),
                       spelling_bytes(family["architecture"], what + "['architecture']"),
                       names_of(family, "aliases", what), names_of(family, "directory_aliases", what)});
    }
    return out;
}

}  // namespace

void bind_family_keys(py::module_& module) {
    module.def("normalize_family_key", [](const py::handle& name) {
        const std::string text = spelling_bytes(name, "name");
        const std::string key = [&] {
            const py::gil_scoped_release release;
            return normalize_family_key(text);
        }();
        return spelling_text(key);
    });
    module.def("find_family", [](const py::handle& families, const py::handle& spelling) -> std::optional<std::size_t> {
        const std::vector<FamilyNames> named = families_from(families);
        const std::string text = spelling_bytes(spelling, "spelling");
        const py::gil_scoped_release release;
        return find_family_among(named, text);
    });
}

}  // namespace famspec::python
