// Registries of the test families, loaded once per test process.
#pragma once

#include <memory>

#include "famspec/registry.hpp"
#include "famspec/resolver.hpp"

namespace famspec::test {

// toy_components + toy
std::shared_ptr<const Registry> toy_registry();
// toy_components + toy_reregistered
std::shared_ptr<const Registry> reregistered_registry();
// Loads the given fixture directories, in order.
std::shared_ptr<const Registry> load_fixtures(std::initializer_list<const char*> names);

inline constexpr const char* kToyNorm = "hyper_parallel.models.toy.adapter.replacements.replace_toy_norm";
inline constexpr const char* kToyModuleType = "toy.modeling_toy.ToyRMSNorm";
inline constexpr const char* kToyEp = "hyper_parallel.models.toy.adapter.distributed.expert_parallel.toy_ep_compute_fn";
inline constexpr const char* kToyCp = "hyper_parallel.models.toy.adapter.distributed.context_parallel.toy_cp_wrapper";

// A ResolveRequest built field by field (GCC 12 warns on designated initialisers that skip fields).
inline ResolveRequest request(std::string target, std::optional<std::string> family, Slot slot, Options options = {},
                              std::optional<std::string> module_type = std::nullopt, bool strict = false) {
    ResolveRequest out;
    out.target = std::move(target);
    out.model_type = std::move(family);
    out.slot = slot;
    out.options = std::move(options);
    out.module_type = std::move(module_type);
    out.strict = strict;
    return out;
}

}  // namespace famspec::test
