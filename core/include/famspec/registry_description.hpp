// Everything the loaded plugins declared, as one canonical JSON document: what tools outside the
// process (the source audit, reviewers, diff tools) read instead of the compiled declarations.
#pragma once

#include <string>

#include "famspec/registry.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// Canonical JSON (see canonical_json.hpp), deterministic for the same plugins:
//   {"format": 1,
//    "plugins":    [{name, version, path, status: ok|error, stage?, message?}],
//    "families":   [{model_type, architecture, aliases, directory_aliases, provider_modules, plugin, where,
//                    factories: [{target, plugin, where, parameters, runtime_only, runtime_only_reason?,
//                                 construction: {component, import_module, mode: wrap_source|name,
//                                                module_passed: keyword|positional|none,
//                                                arguments: [{name, binding: parameter|literal|interface,
//                                                             value}]} | null}],
//                    cp_wrappers: [{target, plugin, where, options}], compute_functions: [target],
//                    archetypes: [{compute_factory, fingerprint, kind, target_class, router_kind,
//                                  shared, strip_boundary_subpatterns, options, plugin, where}]}],
//    "components": [{name, import_module, defining_module, parameters, takes_module, plugin, where}]}
// A parameter is {name, kind: positional_only|positional|keyword_only} plus "default" (a Python
// literal as Python prints it) or "default_expression" (source text), or neither when required, and
// "allowed" (its Literal[...] values, as Python prints them) when its type lists them.
// Every list is sorted: families by model_type, factories and wrappers by target, components by
// defining module and name.
FAMSPEC_API std::string describe_registry_json(const Registry& registry);

}  // namespace famspec
