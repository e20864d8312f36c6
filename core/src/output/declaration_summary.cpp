#include "famspec/declaration_summary.hpp"

#include <boost/json.hpp>

#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/resolver.hpp"
#include "output/spec_json.hpp"
#include "resolution/resolver_state.hpp"

namespace famspec {
namespace json = boost::json;

namespace {

// One entry of a summary from its resolution.
SummaryEntry summary_entry(Slot slot, const Target& target, const std::optional<std::string>& module_type,
                           const auto& resolution) {
    SummaryEntry entry{.slot = slot,
                       .target = target.path,
                       .module_type = module_type,
                       .status = resolution.status(),
                       .replacement = nullptr,
                       .strategy = nullptr,
                       .reason = resolution.reason(),
                       .gap = resolution.gap(),
                       .location = target.location,
                       .diagnostics = resolution.diagnostics};
    const auto* resolved = resolution.resolved();
    if (resolved == nullptr) return entry;
    if constexpr (std::is_same_v<std::decay_t<decltype(resolution)>, Resolution<ReplacementSpec>>) {
        entry.replacement = resolved->spec;
    } else {
        entry.strategy = resolved->spec;
    }
    return entry;
}

}  // namespace

DeclarationSummary Resolver::declaration_summary(const std::optional<std::string>& model_type, const Plan& plan,
                                                 bool strict) const {
    const std::optional<std::string> family = plan_family(plan, model_type, *state_->registry).name;
    DeclarationSummary summary;
    for (const PlanEntry& entry : plan.entries) {
        if (entry.replace_module) {
            const Target& target = *entry.replace_module;
            const auto r = replacement_spec_for({.target = target.path,
                                                 .model_type = family,
                                                 .slot = Slot::replace_module,
                                                 .module_type = entry.module_type,
                                                 .options = target.options,
                                                 .strict = strict});
            summary.entries.push_back(summary_entry(Slot::replace_module, target, entry.module_type, r));
        }
        for (const auto& [slot, target] : {std::pair{Slot::local_compute_fn, &entry.local_compute_fn},
                                           std::pair{Slot::inner_wrapper, &entry.inner_wrapper}}) {
            if (!*target) continue;
            const auto s = strategy_spec_for({.target = (*target)->path,
                                              .model_type = family,
                                              .slot = slot,
                                              .module_type = std::nullopt,
                                              .options = (*target)->options,
                                              .strict = strict});
            summary.entries.push_back(summary_entry(slot, **target, entry.module_type, s));
        }
    }
    return summary;
}

json::object diagnostic_json(const Diagnostic& d) {
    return {{"kind", std::string(name_of(d.kind))},
            {"message", d.message},
            {"suggestion", d.suggestion ? json::value(*d.suggestion) : json::value(nullptr)}};
}

std::string DeclarationSummary::canonical_json() const {
    json::object replacement_specs;
    json::object strategy_specs;
    json::array listed;
    for (const SummaryEntry& entry : entries) {
        json::value spec = nullptr;
        if (entry.replacement) spec = detail::to_json(*entry.replacement);
        if (entry.strategy) spec = detail::to_json(*entry.strategy);
        // The reference's two maps, keyed by target (later entries win), kept for compatibility.
        (entry.slot == Slot::replace_module ? replacement_specs : strategy_specs)[entry.target] = spec;
        json::object listed_entry{
            {"slot", std::string(name_of(entry.slot))},
            {"target", entry.target},
            {"module_type", entry.module_type ? json::value(*entry.module_type) : json::value(nullptr)},
            {"spec", std::move(spec)}};
        // Only when there are any, so that a plan without diagnostics keeps its digest.
        if (!entry.diagnostics.empty()) {
            json::array diagnostics;
            for (const Diagnostic& d : entry.diagnostics) diagnostics.push_back(diagnostic_json(d));
            listed_entry["diagnostics"] = std::move(diagnostics);
        }
        listed.push_back(std::move(listed_entry));
    }
    return famspec::canonical_json(json::object{{"entries", std::move(listed)},
                                                {"replacement_specs", std::move(replacement_specs)},
                                                {"strategy_specs", std::move(strategy_specs)}});
}

std::string DeclarationSummary::digest() const { return sha256_digest(canonical_json()); }

}  // namespace famspec
