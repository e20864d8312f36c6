// The embedding examples of docs/embedding.md, as functions a test can call.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"

namespace docs {

std::shared_ptr<const famspec::Registry> load_families(const std::vector<std::string>& plugin_dirs);
std::vector<std::string> plugin_failures(const famspec::Registry& registry);
std::optional<famspec::ReplacementSpec> replacement_for(const famspec::Resolver& resolver, const std::string& target,
                                                        const std::string& model_type, const std::string& module_type);
std::vector<std::string> resolve_in_parallel(std::shared_ptr<const famspec::Registry> registry,
                                             const std::vector<std::string>& compute_factories);

}  // namespace docs
