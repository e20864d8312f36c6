// Cross-plugin links: a factory constructs a component that some loaded plugin must register
// (usually the shipped `components` plugin). Checked at the validate stage, so that a missing
// catalogue is one clear load error instead of a broken answer for every target that needs it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace famspec::detail {

struct ComponentNeed {
    std::string factory;    // the factory's target
    std::string component;  // <import module>.<class>, as the factory imports it
};

struct LinkingPlugin {
    std::vector<std::string> provides;  // every path its components answer to (import and defining module)
    std::vector<ComponentNeed> needs;
};

// For each plugin, the first need that no linked plugin provides, or nullopt. A plugin with an
// unmet need is unlinked and the check runs again without what it provides, until nothing changes:
// the answer does not depend on the plugins' order.
std::vector<std::optional<ComponentNeed>> unmet_needs(const std::vector<LinkingPlugin>& plugins);

}  // namespace famspec::detail
