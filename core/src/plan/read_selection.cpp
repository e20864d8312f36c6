#include "famspec/read_selection.hpp"

#include "common/dotted_path.hpp"
#include "loading/touched_plugins.hpp"

namespace famspec {

void add_to_selection(ReadSelection& selection, std::string_view target, const std::optional<std::string>& model_type) {
    if (model_type) selection.families.push_back(*model_type);
    // The family a target's own path names, whether or not a family was given: a conservative
    // selection reads both rather than decide here which one resolution will use.
    if (auto directory = detail::family_directory(target)) selection.families.push_back(std::move(*directory));
    selection.targets.emplace_back(target);
}

ReadSelection read_selection(const Plan& plan, const std::optional<std::string>& model_type) {
    ReadSelection selection;
    for (const auto& spelling : {model_type, plan.model_type, plan.architecture}) {
        if (spelling) selection.families.push_back(*spelling);
    }
    if (plan.model_target) {
        if (auto directory = detail::family_directory(*plan.model_target)) selection.families.push_back(*directory);
    }
    for (const PlanEntry& entry : plan.entries) {
        for (const auto* target : {&entry.replace_module, &entry.local_compute_fn, &entry.inner_wrapper}) {
            if (*target) add_to_selection(selection, (*target)->path, std::nullopt);
        }
    }
    return selection;
}

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const ReadSelection& read) {
    return detail::load_touched(options, {read.families, read.targets});
}

}  // namespace famspec
