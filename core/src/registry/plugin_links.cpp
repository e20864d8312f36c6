#include "registry/plugin_links.hpp"

#include <set>

namespace famspec::detail {

std::vector<std::optional<ComponentNeed>> unmet_needs(const std::vector<LinkingPlugin>& plugins) {
    std::vector<std::optional<ComponentNeed>> unmet(plugins.size());
    for (bool changed = true; changed;) {
        changed = false;
        std::set<std::string, std::less<>> provided;
        for (std::size_t i = 0; i < plugins.size(); ++i) {
            if (!unmet[i]) provided.insert(plugins[i].provides.begin(), plugins[i].provides.end());
        }
        for (std::size_t i = 0; i < plugins.size(); ++i) {
            if (unmet[i]) continue;
            for (const ComponentNeed& need : plugins[i].needs) {
                if (provided.contains(need.component)) continue;
                unmet[i] = need;
                changed = true;
                break;
            }
        }
    }
    return unmet;
}

}  // namespace famspec::detail
