#include "famspec/plugin_error.hpp"

#include <array>
#include <utility>

namespace famspec {
namespace {

// The one table of stage names, in stage order.
constexpr std::array<std::pair<PluginStage, std::string_view>, 9> kStageNames = {{
    {PluginStage::find, "find"},
    {PluginStage::trust, "trust"},
    {PluginStage::manifest, "manifest"},
    {PluginStage::compatibility, "compatibility"},
    {PluginStage::open, "open"},
    {PluginStage::entry, "entry"},
    {PluginStage::handshake, "handshake"},
    {PluginStage::register_, "register"},
    {PluginStage::validate, "validate"},
}};

}  // namespace

std::string_view stage_name(PluginStage stage) {
    for (const auto& [value, name] : kStageNames) {
        if (value == stage) return name;
    }
    return "unknown";
}

std::optional<PluginStage> stage_from_name(std::string_view name) {
    for (const auto& [value, text] : kStageNames) {
        if (text == name) return value;
    }
    return std::nullopt;
}

}  // namespace famspec
