// load_plugins as the stages it runs, one function a stage:
//   find (plugin_candidates) -> trust -> manifest -> compatibility (plugin_preflight) -> open ->
//   entry -> handshake (plugin_library) -> register, which reads the tables (plugin_tables) ->
//   validate (here, with plugin_conflicts and plugin_links). Each group of stages runs for every
//   candidate before the next group starts.
#include "famspec/plugin_loader.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>

#include "discovery/plugin_candidates.hpp"
#include "discovery/plugin_refusal.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/registry_entries.hpp"
#include "loading/plugin_library.hpp"
#include "loading/plugin_preflight.hpp"
#include "loading/plugin_tables.hpp"
#include "registry/plugin_conflicts.hpp"
#include "registry/plugin_links.hpp"
#include "registry/staging_registrar.hpp"

namespace famspec {
using detail::Candidate;
using detail::Opened;
using detail::refusal;

namespace {

// Stages open, entry and handshake.
Expected<Opened, PluginError> open_plugin(Candidate& candidate, const StageCallback& on_stage) {
    detail::announce(on_stage, candidate, PluginStage::open);
    auto opened = detail::open_library(candidate);
    if (opened) {
        auto entry = detail::find_entry(candidate, *opened);
        if (!entry) return unexpected(std::move(entry.error()));
        opened->descriptor = *entry;
        if (auto error = detail::check_handshake(candidate, *opened->descriptor)) return unexpected(*std::move(error));
    }
    return opened;
}

// Stage validate, for one plugin: what it registered is what its manifest says.
std::optional<PluginError> check_drift(const Candidate& candidate, const PluginManifest& carried,
                                       const PluginManifest& registered) {
    const auto drift = manifest_differences(carried, registered);
    if (drift.empty()) return std::nullopt;
    const std::string all = detail::joined(drift);
    return refusal(candidate.path.string(), PluginStage::validate, "the manifest to match the registration", all,
                   "manifest drift: " + all + "; rebuild the plugin so its manifest is regenerated");
}

// A plugin that passed every stage of its own, waiting for the cross-plugin check.
struct Staged {
    std::size_t record;
    std::shared_ptr<const PluginManifest> manifest;  // its record's: the registration matched it
    detail::StagingRegistrar::Declarations declarations;
};

// Stages register and validate, for one opened plugin: its own declarations, matched against its manifest.
Expected<Staged, PluginError> register_candidate(const Candidate& candidate, const Opened& plugin,
                                                 const detail::LoadedSegments& memory, const StageCallback& on_stage,
                                                 PluginRecord& record) {
    auto registrar = std::make_unique<detail::StagingRegistrar>(plugin.descriptor->name, record.path, plugin.library);
    detail::announce(on_stage, candidate, PluginStage::register_);
    if (auto error = detail::read_tables(candidate, *plugin.descriptor, memory, *registrar)) {
        return unexpected(*std::move(error));
    }
    detail::announce(on_stage, candidate, PluginStage::validate);
    PluginManifest registered = registrar->manifest(*plugin.descriptor);
    if (record.manifest) {
        if (auto error = check_drift(candidate, *record.manifest, registered)) return unexpected(*std::move(error));
    } else {
        record.manifest = std::make_shared<const PluginManifest>(std::move(registered));
    }
    return Staged{0, record.manifest, std::move(*registrar).take()};
}

// A candidate that passed trust to compatibility, and one that passed open to handshake, each with
// the index of its record.
struct Checked {
    Candidate* candidate;
    std::size_t record;
};
struct Mapped {
    Candidate* candidate;
    Opened plugin;
    std::size_t record;
};

// Stages trust to handshake, then register and validate, each stage for every candidate before the next:
// no plugin is mapped before every file's metadata is checked, and the dynamic loader's work runs back
// to back, with its own data in the cache, as does the registration's.
std::vector<Staged> stage_candidates(std::vector<Candidate>& candidates, const LoadOptions& options,
                                     const StageCallback& on_stage, std::vector<PluginRecord>& records) {
    std::vector<Checked> checked;
    for (Candidate& candidate : candidates) {
        records.push_back(detail::record_of(candidate));
        PluginRecord& record = records.back();
        detail::Preflight checked_before = detail::check_before_open(candidate, options, on_stage);
        record.manifest = std::move(checked_before.manifest);
        record.notes = std::move(checked_before.notes);
        if (checked_before.error) {
            record.error = std::move(checked_before.error);
        } else {
            checked.push_back({&candidate, records.size() - 1});
        }
    }
    std::vector<Mapped> mapped;
    for (const auto& [candidate, record] : checked) {
        auto plugin = open_plugin(*candidate, on_stage);
        if (plugin) {
            mapped.push_back({candidate, std::move(*plugin), record});
        } else {
            records[record].error = plugin.error();
        }
    }
    std::vector<Staged> staged;
    const auto memory = detail::LoadedSegments::now();
    for (const auto& [candidate, plugin, record] : mapped) {
        auto registered = register_candidate(*candidate, plugin, memory, on_stage, records[record]);
        if (!registered) {
            records[record].error = registered.error();
            continue;
        }
        staged.push_back(std::move(registered).value());
        staged.back().record = record;
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
            links.provides.push_back(std::string(component->import_module()) + "." + std::string(component->name()));
        }
        for (const auto& factory : plugin.declarations.factories) {
            if (const Construction* built = factory->construction()) {
                links.needs.push_back({std::string(factory->target()), built->import_module + "." + built->component});
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
    const std::lock_guard lock(detail::loader_mutex());
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
