// famspec._native: the extension module the famspec package is built on.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "famspec/sdk/abi.hpp"

PYBIND11_MODULE(_native, module) {
    module.doc() = "famspec core bindings (use the famspec package, not this module)";
    module.attr("version") = FAMSPEC_VERSION_STRING;
    module.attr("abi") = std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor);
    famspec::python::bind_plan(module);
    famspec::python::bind_registry(module);
    famspec::python::bind_resolver(module);
    famspec::python::bind_summary(module);
    famspec::python::bind_family_keys(module);
}
