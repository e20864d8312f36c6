// Stages open, entry and handshake: the plugin mapped, and its descriptor trusted step by step.
// Every dlopen and dlsym happens under loader_mutex(); a mapped library is never unloaded.
#pragma once

#include <boost/dll/shared_library.hpp>
#include <memory>
#include <mutex>
#include <optional>

#include "discovery/plugin_candidates.hpp"
#include "famspec/expected.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/sdk/abi.hpp"

namespace famspec::detail {

using Library = boost::dll::shared_library;

std::mutex& loader_mutex();

struct Opened {
    std::shared_ptr<Library> library;
    const PluginDescriptor* descriptor = nullptr;
};

// Stage open: map the very file that was checked, through its descriptor, and refuse it if it
// changed since it was opened. No plugin function runs (static constructors aside).
Expected<Opened, PluginError> open_library(Candidate& candidate);

// Stage entry: the descriptor this file itself defines.
Expected<const PluginDescriptor*, PluginError> find_entry(const Candidate& candidate, const Opened& opened);

// Stage handshake: the descriptor's own claims, checked before its tables are read.
std::optional<PluginError> check_handshake(const Candidate& candidate, const PluginDescriptor& d);

// What a descriptor says about itself, for a plugin refused at the handshake.
PluginManifest descriptor_manifest(const Candidate& candidate, const PluginDescriptor& d);

}  // namespace famspec::detail
