// What declare::FactoryDecl records about one replacement factory, before it becomes a
// ReplacementFactory object at registration.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec::declare::detail {

struct FactoryData {
    FactoryData(std::string target_, std::string where_) : target(std::move(target_)), where(std::move(where_)) {
        // Every @module_replacement factory takes these three at runtime.
        parameters = {{"module", ParameterKind::positional_or_keyword, Default::required()},
                      {"module_fqn", ParameterKind::positional_or_keyword, Default::literal("")},
                      {"context", ParameterKind::positional_or_keyword, Default::literal(none)}};
    }

    void add_option(std::string name, PyLiteral fallback) {
        parameters.push_back(
            {std::move(name), ParameterKind::positional_or_keyword, Default::literal(std::move(fallback))});
    }

    std::string target;
    std::string where;  // "file:line" of the declaration
    std::vector<Parameter> parameters;
    std::optional<Construction> construction;
    std::string runtime_only_reason = "the factory declares no construction";
};

}  // namespace famspec::declare::detail
