#include "famspec/declaration_summary.hpp"

#include <boost/json.hpp>

#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/resolver.hpp"
#include "spec_json.hpp"

namespace famspec {
namespace json = boost::json;

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
            for (const Diagnostic& d : entry.diagnostics) {
                diagnostics.push_back(json::object{
                    {"kind", std::string(name_of(d.kind))}, {"message", d.message}, {"suggestion", d.suggestion}});
            }
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
