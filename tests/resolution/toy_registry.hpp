// Registries of the test families, loaded once per test process.
#pragma once

#include <memory>

#include "famspec/registry.hpp"

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

}  // namespace famspec::test
