// How an answer was reached: what `famspec resolve --explain` prints, from Resolution::explanation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace famspec {

// A declaration that took part in an answer, and the plugin that registered it.
struct DeclaredBy {
    std::string role;    // "family", "factory", "component", "archetype", "cp-wrapper" or "compute-function"
    std::string name;    // the family's model_type, the target, or the component's <module>.<Class>
    std::string plugin;  // the plugin's name

    friend bool operator==(const DeclaredBy&, const DeclaredBy&) = default;
};

// The decision trace `famspec resolve --explain` prints.
struct Explanation {
    std::vector<std::string> spellings_tried;
    std::string family;   // the family chosen, empty when none
    std::string plugin;   // the plugin that answered
    std::string channel;  // "factory", "direct-component", "archetype", "cp-wrapper"
    bool cache_hit = false;
    std::string rule;  // the rule that decided
    // Each declaration the answer used, in the order the resolver met them: the family, then the
    // factory and the component it constructs, the archetype, or the wrapper. One plugin may
    // declare the factory and another the component it names.
    std::vector<DeclaredBy> declared_by;

    void declared(std::string_view role, std::string_view name, const std::string& by) {
        declared_by.push_back({std::string(role), std::string(name), by});
    }
};

}  // namespace famspec
