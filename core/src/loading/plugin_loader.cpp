// load_plugins as the stages it runs, one function a stage:
//   find (plugin_candidates) -> trust -> manifest -> compatibility (plugin_preflight) -> register,
//   which checks the tables, reads their claims and copies the declarations (plugin_tables) ->
//   validate (here, with plugin_conflicts and plugin_links). Each group of stages runs for every
//   candidate before the next group starts. A plugin file is read, never loaded: no code in it runs.
#include "famspec/plugin_loader.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>

#include "discovery/plugin_candidates.hpp"
#include "discovery/plugin_refusal.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/registry_entries.hpp"
#include "loading/plugin_preflight.hpp"
#include "loading/plugin_tables.hpp"
#include "registry/plugin_conflicts.hpp"
#include "registry/plugin_links.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec {
using detail::Candidate;
using detail::refusal;

namespace {

// One load at a time in a process: the registry a load builds is frozen before another starts.
std::mutex& loader_mutex() {
    static std::mutex mutex;
    return mutex;
}

// A plugin that passed every stage of its own, waiting for the cross-plugin checks.
struct Staged {
    std::size_t record;
    std::shared_ptr<const PluginManifest> manifest;  // its record's
    detail::StagingRegistrar::Declarations declarations;
};

// Stages trust to register for every candidate, each stage for every candidate before the next.
std::vector<Staged> stage_candidates(std::vector<Candidate>& candidates, const LoadOptions& options,
                                     const StageCallback& on_stage, std::vector<PluginRecord>& records) {
    struct Read {
        Candidate* candidate;
        detail::ReadTables tables;
        std::size_t record;
    };
    std::vector<Read> read;
    for (Candidate& candidate : candidates) {
        records.push_back(detail::record_of(candidate));
        if (auto error = detail::check_before_reading(candidate, options, on_stage)) {
            records.back().error = std::move(error);
            continue;
        }
        detail::announce(on_stage, candidate, PluginStage::register_);
        auto tables = detail::read_tables(candidate);
        if (!tables) {
            records.back().error = std::move(tables.error());
            continue;
        }
        records.back().manifest = tables->manifest;
        read.push_back({&candidate, std::move(*tables), records.size() - 1});
    }
    std::vector<Staged> staged;
    for (auto& [candidate, tables, record] : read) {
        detail::StagingRegistrar registrar(tables.manifest->name, records[record].path);
        if (auto error = detail::stage_declarations(*candidate, tables, registrar)) {
            records[record].error = std::move(error);
            continue;
        }
        staged.push_back({record, tables.manifest, std::move(registrar).take()});
    }
    return staged;
}

// Stage validate, across plugins: a claim two plugins make is refused for both.
void refuse_shared_claims(std::vector<Staged>& staged, std::vector<PluginRecord>& records) {
    std::vector<detail::Claimant> claimants;
    for (const Staged& plugin : staged) claimants.push_back({plugin.manifest.get(), records[plugin.record].path});
    const auto shared = detail::shared_claims(claimants);
    for (std::size_t i = 0; i < staged.size(); ++i) {
        if (!shared[i].empty())
            records[staged[i].record].error = detail::duplicate_refusal(claimants[i].path, shared[i]);
    }
    std::erase_if(staged, [&](const Staged& plugin) { return !records[plugin.record].ok(); });
}

// Stage validate, across plugins: what each factory constructs is registered by a plugin that loads.
void refuse_unlinked(std::vector<Staged>& staged, std::vector<PluginRecord>& records) {
    std::vector<detail::LinkingPlugin> plugins;
    for (const Staged& plugin : staged) {
        detail::LinkingPlugin& links = plugins.emplace_back();
        for (const auto& component : plugin.declarations.components) {
            links.provides.push_back(defining_path(*component));
            links.provides.push_back(std::string(component->import_module) + "." + std::string(component->name));
        }
        for (const auto& factory : plugin.declarations.factories) {
            if (const std::optional<Construction>& built = factory->construction) {
                links.needs.push_back({std::string(factory->target), built->import_module + "." + built->component});
            }
        }
    }
    const auto unmet = detail::unmet_needs(plugins);
    for (std::size_t i = 0; i < staged.size(); ++i) {
        if (!unmet[i]) continue;
        const std::string& path = records[staged[i].record].path;
        records[staged[i].record].error = detail::refusal(
            path, PluginStage::validate, "component " + unmet[i]->component + " registered by a loaded plugin",
            "no loaded plugin registers it",
            "factory " + unmet[i]->factory + " constructs component " + unmet[i]->component +
                ", which no loaded plugin registers; put the plugin that registers it (for the generic "
                "hyper_parallel.components catalogue, the shipped 'components' plugin) on the plugin path");
    }
    std::erase_if(staged, [&](const Staged& plugin) { return !records[plugin.record].ok(); });
}

template <class T>
void commit(std::vector<T>& into, std::vector<T>& staged) {
    std::move(staged.begin(), staged.end(), std::back_inserter(into));
}

Registry::Contents freeze(std::vector<Staged>& staged, std::vector<PluginRecord> records) {
    Registry::Contents contents;
    for (Staged& plugin : staged) {
        commit(contents.families, plugin.declarations.families);
        commit(contents.factories, plugin.declarations.factories);
        commit(contents.archetypes, plugin.declarations.archetypes);
        commit(contents.cp_wrappers, plugin.declarations.cp_wrappers);
        commit(contents.components, plugin.declarations.components);
    }
    contents.plugins = std::move(records);
    return contents;
}

void log_records(const LoadOptions& options, const std::vector<PluginRecord>& records) {
    if (!options.log) return;
    for (const PluginRecord& record : records) {
        if (record.ok()) {
            options.log(LogLevel::info, "loaded plugin " + record.path);
            for (const std::string& note : record.notes) options.log(LogLevel::info, record.path + ": " + note);
        } else {
            options.log(LogLevel::error, record.error->message);
        }
    }
}

}  // namespace

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options) { return load_plugins(options, {}); }

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const StageCallback& on_stage,
                                             ComponentLinks links) {
    const std::lock_guard lock(loader_mutex());
    std::vector<PluginRecord> records = detail::search_records(options);
    std::vector<Staged> staged;
    {
        // A candidate's paths and file contents serve its own load only.
        std::vector<Candidate> candidates = detail::find_candidates(options, records);
        staged = stage_candidates(candidates, options, on_stage, records);
    }
    refuse_shared_claims(staged, records);
    if (links == ComponentLinks::required) refuse_unlinked(staged, records);
    log_records(options, records);
    Registry::Contents contents = freeze(staged, std::move(records));
    staged.clear();  // before the registry's indexes are built: the peak of a load is there
    return std::make_shared<const Registry>(std::move(contents));
}

}  // namespace famspec
