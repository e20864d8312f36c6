// What a replacement factory constructs, declared instead of read from its source: the registry's
// copy of a factory row's `constructs` and `arguments` (tables::Constructs, tables::Argument).
#pragma once

#include <string>
#include <vector>

#include "famspec/sdk/argument_binding.hpp"
#include "famspec/sdk/construction_mode.hpp"

namespace famspec {

struct Argument {
    std::string name;  // the component keyword
    ArgumentBinding binding = ArgumentBinding::parameter;
    std::string value;  // the factory parameter, the literal source text, or the interface function name

    friend bool operator==(const Argument&, const Argument&) = default;
};

struct Construction {
    std::string component;      // class name, e.g. "RMSNorm"
    std::string import_module;  // where the factory imports it from, e.g. "hyper_parallel.components.modules"
    ConstructionMode mode = ConstructionMode::wrap_source;
    bool module_positional = false;   // Cls(module) rather than Cls(module=module); still a wrap
    std::vector<Argument> arguments;  // keyword arguments other than module, in call order

    friend bool operator==(const Construction&, const Construction&) = default;
};

}  // namespace famspec
