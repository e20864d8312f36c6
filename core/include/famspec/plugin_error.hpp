// A structured report of why a plugin did not load.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/sdk/export.hpp"

namespace famspec {

// The stages a candidate goes through, in order; a failure names the stage it stopped at.
// trust: the file and its directory are safe to load from, and its digest is pinned when required.
enum class PluginStage { find, trust, manifest, compatibility, open, entry, handshake, register_, validate };

FAMSPEC_API std::string_view stage_name(PluginStage stage);

struct PluginError {
    std::string path;
    PluginStage stage = PluginStage::find;
    std::string expected;
    std::string found;
    std::string system_message;  // dlerror or OS text, when there is one
    std::string message;         // one readable sentence naming the file and both sides

    friend bool operator==(const PluginError&, const PluginError&) = default;
};

}  // namespace famspec
