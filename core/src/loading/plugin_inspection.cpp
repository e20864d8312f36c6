// What plugin files declare and whether they load (inspect_candidates, inspect_plugins, mark_conflicts).
#include "famspec/plugin_inspection.hpp"

#include "discovery/plugin_candidates.hpp"
#include "loading/plugin_preflight.hpp"
#include "loading/plugin_tables.hpp"
#include "registry/plugin_conflicts.hpp"

namespace famspec {
using detail::Candidate;

void mark_conflicts(std::vector<PluginRecord>& records) {
    std::vector<detail::Claimant> claimants;
    std::vector<PluginRecord*> claiming;
    for (PluginRecord& record : records) {
        if (!record.ok() || !record.manifest) continue;
        claimants.push_back({&*record.manifest, record.path});
        claiming.push_back(&record);
    }
    const auto shared = detail::shared_claims(claimants);
    for (std::size_t i = 0; i < claiming.size(); ++i) {
        if (!shared[i].empty()) claiming[i]->error = detail::duplicate_refusal(claiming[i]->path, shared[i]);
    }
}

std::vector<PluginRecord> inspect_plugins(const LoadOptions& options) {
    // Every check of a load, the cross-plugin ones included: what `list` says is what a load does.
    const auto registry = load_plugins(options);
    return {registry->plugins().begin(), registry->plugins().end()};
}

std::vector<PluginRecord> inspect_candidates(const LoadOptions& options) {
    std::vector<PluginRecord> records = detail::search_records(options);
    for (const Candidate& candidate : detail::find_candidates(options, records)) {
        PluginRecord record = detail::record_of(candidate);
        record.error = detail::check_before_reading(candidate, options);
        if (!record.error) {
            auto tables = detail::read_tables(candidate);
            if (tables) {
                record.manifest = tables->manifest;
                // Copied and checked as a load would, then dropped: a file refused at load is refused here.
                detail::StagingRegistrar registrar(tables->manifest->name, record.path);
                record.rows_read = true;
                record.error = detail::stage_declarations(candidate, *tables, registrar);
            } else {
                record.error = std::move(tables.error());
            }
        }
        records.push_back(std::move(record));
    }
    return records;
}

}  // namespace famspec
