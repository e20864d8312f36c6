#include "famspec/plugin_error.hpp"

namespace famspec {

std::string_view stage_name(PluginStage stage) {
    switch (stage) {
        case PluginStage::find:
            return "find";
        case PluginStage::manifest:
            return "manifest";
        case PluginStage::compatibility:
            return "compatibility";
        case PluginStage::open:
            return "open";
        case PluginStage::entry:
            return "entry";
        case PluginStage::handshake:
            return "handshake";
        case PluginStage::register_:
            return "register";
        case PluginStage::validate:
            return "validate";
    }
    return "unknown";
}

}  // namespace famspec
