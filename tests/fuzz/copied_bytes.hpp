// How many bytes of text the core holds after reading one plugin's tables, counted from what it
// built (the manifest, the staged declarations with their sites, the staging's errors) and not from
// what it charged: the tables harness compares it with the copy budget's bound, so a copy that
// escapes the budget is caught by the count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "famspec/plugin_manifest.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec::fuzz {

std::uint64_t copied_bytes(const PluginManifest& manifest);
std::uint64_t copied_bytes(const detail::StagingRegistrar::Declarations& declared);
std::uint64_t copied_bytes(const std::vector<std::string>& texts);

}  // namespace famspec::fuzz
