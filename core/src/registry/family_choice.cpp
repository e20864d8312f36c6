#include "registry/family_choice.hpp"

#include "common/dotted_path.hpp"
#include "famspec/registry_entries.hpp"

namespace famspec::detail {

FamilyChoice choose_family(const Registry& registry, const std::optional<std::string>& model_type,
                           std::string_view target, Explanation& explanation) {
    FamilyChoice choice;
    choice.requested = model_type;
    if (!choice.requested) {
        choice.requested = family_directory(target);
        choice.inferred = choice.requested.has_value();
    }
    if (!choice.requested) return choice;
    FamilyLookup lookup = registry.explain_family(*choice.requested);
    choice.family = lookup.family;
    explanation.spellings_tried = std::move(lookup.spellings_tried);
    if (choice.family != nullptr) {
        explanation.family = std::string((*choice.family)->model_type);
        explanation.declared("family", explanation.family, choice.family->plugin);
    }
    return choice;
}

std::string unknown_family(const FamilyChoice& choice) {
    return "unknown family '" + choice.requested.value_or("") + "'" +
           (choice.inferred ? " (inferred from the target path)" : "") + ": no loaded plugin registers it";
}

std::string_view family_name(const FamilyChoice& choice) {
    if (choice.family != nullptr) return (*choice.family)->model_type;
    return choice.requested ? std::string_view(*choice.requested) : std::string_view();
}

}  // namespace famspec::detail
