// Builds the ReplacementSpec a declaration stands for: from a family factory's construction, or from
// a component named directly. Pure functions of the registry's declarations.
#pragma once

#include <string>

#include "famspec/component_renderer.hpp"
#include "famspec/plan.hpp"
#include "famspec/registry.hpp"
#include "famspec/specs.hpp"
#include "resolution/outcome.hpp"

namespace famspec::detail {

// `options` have passed check_options: each is declared and has the declared type.
Outcome<ReplacementSpec> build_factory_replacement(const Registry& registry, const RegisteredFamily& family,
                                                   const ReplacementFactory& factory, const std::string& old_ctor,
                                                   const Options& options, const ComponentRenderer& renderer);

Outcome<ReplacementSpec> build_component_replacement(const Component& component, const std::string& old_ctor,
                                                     const Options& options);

}  // namespace famspec::detail
