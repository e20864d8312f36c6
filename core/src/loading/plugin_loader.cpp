// load_plugins as the stages it runs, one function a stage:
//   find (plugin_candidates) -> trust -> manifest -> compatibility (plugin_preflight) -> register,
//   which checks the tables, reads their claims and copies the declarations (plugin_tables) ->
//   validate (here, with plugin_conflicts and plugin_links). Each group of stages runs for every
//   candidate before the next group starts. A plugin file is read, never loaded: no code in it runs.
//   A selective load (famspec/read_selection.hpp) copies the rows of the plugins its selection touches only
//   (touched_plugins), unless anything it reads is refused: then it copies every plugin's.
#include "famspec/plugin_loader.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>

#include "common/dotted_path.hpp"
#include "discovery/plugin_candidates.hpp"
#include "discovery/plugin_refusal.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/registry_entries.hpp"
#include "loading/plugin_preflight.hpp"
#include "loading/plugin_tables.hpp"
#include "loading/touched_plugins.hpp"
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

// A candidate whose tables were checked and whose claims were read; its rows are not copied yet.
struct Read {
    Candidate* candidate;
    detail::ReadTables tables;
    std::size_t record;
};

// Stages trust to register's reading of the claims, for every candidate, each stage for every
// candidate before the next.
std::vector<Read> read_candidates(std::vector<Candidate>& candidates, const LoadOptions& options,
                                  const StageCallback& on_stage, std::vector<PluginRecord>& records) {
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
    return read;
}

// Stage register's copy of one plugin's rows: its declarations join `staged`, or its record is refused.
void stage_rows(Read& plugin, std::vector<PluginRecord>& records, std::vector<Staged>& staged) {
    PluginRecord& record = records[plugin.record];
    record.rows_read = true;
    detail::StagingRegistrar registrar(plugin.tables.manifest->name, record.path);
    if (auto error = detail::stage_declarations(*plugin.candidate, plugin.tables, registrar)) {
        record.error = std::move(error);
        return;
    }
    staged.push_back({plugin.record, plugin.tables.manifest, std::move(registrar).take()});
}

std::vector<detail::Claimant> claimants_of(const auto& plugins, const std::vector<PluginRecord>& records) {
    std::vector<detail::Claimant> claimants;
    for (const auto& plugin : plugins)
        claimants.push_back({&*records[plugin.record].manifest, records[plugin.record].path});
    return claimants;
}

// What each staged plugin's components answer to and what its factories construct.
std::vector<detail::LinkingPlugin> links_of(const std::vector<Staged>& staged) {
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
    return plugins;
}

// The class names of the components the staged factories construct.
std::vector<std::string> constructed_classes(const std::vector<Staged>& staged) {
    std::vector<std::string> classes;
    for (const detail::LinkingPlugin& plugin : links_of(staged)) {
        for (const detail::ComponentNeed& need : plugin.needs)
            classes.emplace_back(detail::split_last(need.component).name);
    }
    return classes;
}

// Whether a selective load must read every plugin to refuse what a full load refuses: a plugin it
// read was refused, a claim is shared by any two plugins, or a factory it read links to no component.
bool refuses_anything(const std::vector<Read>& read, const std::vector<Staged>& staged,
                      const std::vector<PluginRecord>& records, ComponentLinks links) {
    if (std::any_of(read.begin(), read.end(), [&](const Read& plugin) { return !records[plugin.record].ok(); }))
        return true;
    const auto shared = detail::shared_claims(claimants_of(read, records));
    if (std::any_of(shared.begin(), shared.end(), [](const auto& claims) { return !claims.empty(); })) return true;
    if (links != ComponentLinks::required) return false;
    const auto unmet = detail::unmet_needs(links_of(staged));
    return std::any_of(unmet.begin(), unmet.end(), [](const auto& need) { return need.has_value(); });
}

// A selective load's register stage: the rows of the plugins the selection touches, then of the
// plugins registering the components those construct, until none is added. When that refuses
// anything, every plugin's rows, so that the load refuses as a full one. Returns whether it read all.
bool stage_selection(std::vector<Read>& read, const detail::TouchNames& selection, ComponentLinks links,
                     std::vector<PluginRecord>& records, std::vector<Staged>& staged) {
    std::vector<detail::ClaimsOf> claims;
    for (const Read& plugin : read) claims.push_back({plugin.tables.manifest.get(), &plugin.tables.view});
    std::vector<bool> touched = detail::touched_plugins(selection, claims);
    std::vector<bool> done(read.size(), false);
    for (bool more = true; more;) {
        for (std::size_t i = 0; i < read.size(); ++i) {
            if (touched[i] && !done[i]) stage_rows(read[i], records, staged);
            done[i] = done[i] || touched[i];
        }
        more = detail::touch_providers(constructed_classes(staged), claims, touched);
    }
    const bool everything = refuses_anything(read, staged, records, links);
    for (std::size_t i = 0; i < read.size() && everything; ++i) {
        if (!done[i]) stage_rows(read[i], records, staged);
    }
    // In load order, whichever order they were touched in: the first claim of a spelling keeps it.
    std::sort(staged.begin(), staged.end(), [](const Staged& a, const Staged& b) { return a.record < b.record; });
    return everything;
}

// Stage validate, across plugins: a claim two plugins make is refused for both.
void refuse_shared_claims(std::vector<Staged>& staged, std::vector<PluginRecord>& records) {
    const std::vector<detail::Claimant> claimants = claimants_of(staged, records);
    const auto shared = detail::shared_claims(claimants);
    for (std::size_t i = 0; i < staged.size(); ++i) {
        if (!shared[i].empty())
            records[staged[i].record].error = detail::duplicate_refusal(claimants[i].path, shared[i]);
    }
    std::erase_if(staged, [&](const Staged& plugin) { return !records[plugin.record].ok(); });
}

// Stage validate, across plugins: what each factory constructs is registered by a plugin that loads.
void refuse_unlinked(std::vector<Staged>& staged, std::vector<PluginRecord>& records) {
    const auto unmet = detail::unmet_needs(links_of(staged));
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

// Every stage; with `touch`, the rows of the plugins it touches only (stage_selection).
std::shared_ptr<const Registry> load(const LoadOptions& options, const StageCallback& on_stage, ComponentLinks links,
                                     const detail::TouchNames* touch) {
    const std::lock_guard lock(loader_mutex());
    std::vector<PluginRecord> records = detail::search_records(options);
    std::vector<Staged> staged;
    bool everything = true;
    {
        // A candidate's paths and file contents serve its own load only.
        std::vector<Candidate> candidates = detail::find_candidates(options, records);
        std::vector<Read> read = read_candidates(candidates, options, on_stage, records);
        if (touch != nullptr) {
            everything = stage_selection(read, *touch, links, records, staged);
        } else {
            for (Read& plugin : read) stage_rows(plugin, records, staged);
        }
    }
    // A selection that read only part found no claim shared anywhere (or it would have read all).
    if (everything) refuse_shared_claims(staged, records);
    if (links == ComponentLinks::required) refuse_unlinked(staged, records);
    log_records(options, records);
    Registry::Contents contents = freeze(staged, std::move(records));
    staged.clear();  // before the registry's indexes are built: the peak of a load is there
    return std::make_shared<const Registry>(std::move(contents));
}

}  // namespace

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options) { return load_plugins(options, {}); }

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options, const StageCallback& on_stage,
                                             ComponentLinks links) {
    return load(options, on_stage, links, nullptr);
}

std::shared_ptr<const Registry> detail::load_touched(const LoadOptions& options, const detail::TouchNames& names) {
    return load(options, {}, ComponentLinks::required, &names);
}

}  // namespace famspec
