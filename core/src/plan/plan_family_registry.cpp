// The family of a plan once the plugins are loaded, and what to say when a family given explicitly
// is not registered.
#include <algorithm>

#include "famspec/family_suggestions.hpp"
#include "famspec/nearest_names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/registry.hpp"
#include "famspec/registry_entries.hpp"

namespace famspec {

PlanFamily plan_family(const Plan& plan, const std::optional<std::string>& model_type, const Registry& registry) {
    PlanFamily family = plan_family(plan, model_type);
    // model._target_ often names one of the runtime's generic builders (HyperAutoModelForCausalLM,
    // _transformers) where a family directory would be: only a registered family counts.
    if (family.source != FamilySource::model_target || registry.find_family(*family.name) != nullptr) return family;
    return PlanFamily{std::nullopt, FamilySource::per_target, true};
}

bool names_family_explicitly(FamilySource source) {
    return source == FamilySource::caller || source == FamilySource::model_type || source == FamilySource::architecture;
}

std::vector<std::string> family_suggestions(const Registry& registry, std::string_view name) {
    std::vector<std::string> spellings;
    std::vector<std::string> owners;  // the model_type each spelling names, in the same order
    const auto add = [&](std::string_view spelling, std::string_view owner) {
        spellings.emplace_back(spelling);
        owners.emplace_back(owner);
    };
    for (const RegisteredFamily& family : registry.families()) {
        const std::string_view model_type = family->model_type;
        add(model_type, model_type);
        add(family->architecture, model_type);
        for (const auto& alias : family->aliases) add(alias, model_type);
        for (const auto& directory : family->directory_aliases) add(directory, model_type);
    }
    std::vector<std::string> out;
    for (const std::string& close : close_names(name, spellings)) {
        for (std::size_t i = 0; i < spellings.size(); ++i) {
            if (spellings[i] != close || owners[i] == name) continue;
            if (std::find(out.begin(), out.end(), owners[i]) == out.end()) out.push_back(owners[i]);
        }
    }
    return out;
}

std::string unknown_family_message(const Registry& registry, std::string_view name) {
    std::string tried;
    for (const std::string& spelling : registry.explain_family(name).spellings_tried) {
        tried += (tried.empty() ? "" : ", ") + spelling;
    }
    return "unknown family '" + std::string(name) + "' (tried " + tried + ")" +
           did_you_mean(family_suggestions(registry, name));
}

}  // namespace famspec
