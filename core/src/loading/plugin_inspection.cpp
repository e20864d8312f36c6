// Reading plugins without running them (inspect_candidates, inspect_plugins, mark_conflicts), and
// the build-time manifest of one plugin file (generate_manifest), which maps it and reads its tables.
#include "famspec/plugin_inspection.hpp"

#include <mutex>

#include "discovery/plugin_candidates.hpp"
#include "loading/plugin_library.hpp"
#include "loading/plugin_preflight.hpp"
#include "loading/plugin_tables.hpp"
#include "registry/plugin_conflicts.hpp"

namespace famspec {
namespace fs = std::filesystem;
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
    std::vector<PluginRecord> records = inspect_candidates(options);
    mark_conflicts(records);
    return records;
}

std::vector<PluginRecord> inspect_candidates(const LoadOptions& options) {
    std::vector<PluginRecord> records = detail::search_records(options);
    for (const Candidate& candidate : detail::find_candidates(options, records)) {
        PluginRecord record = detail::record_of(candidate);
        detail::Preflight checked = detail::check_before_open(candidate, options);
        record.manifest = std::move(checked.manifest);
        record.error = std::move(checked.error);
        record.notes = std::move(checked.notes);
        records.push_back(std::move(record));
    }
    return records;
}

ManifestGeneration generate_manifest(const fs::path& plugin) {
    LoadOptions options;
    options.files.push_back(plugin);
    options.allow_insecure = true;  // a build tree is the author's own business
    const std::lock_guard lock(detail::loader_mutex());
    std::vector<PluginRecord> records;
    std::vector<Candidate> candidates = detail::find_candidates(options, records);
    if (candidates.empty()) return {std::nullopt, records.empty() ? std::nullopt : records.front().error, false, {}};
    Candidate& candidate = candidates.front();
    if (!candidate.elf.is_elf) return {std::nullopt, detail::read_manifest(candidate, false).error(), false, {}};
    auto opened = detail::open_library(candidate);
    if (!opened) return {std::nullopt, opened.error(), false, {}};
    detail::Opened& loaded = *opened;
    auto entry = detail::find_entry(candidate, loaded);
    if (!entry) return {std::nullopt, std::move(entry.error()), false, {}};
    loaded.descriptor = *entry;
    if (auto refused = detail::check_handshake(candidate, *loaded.descriptor)) {
        // Still describe it, so that every famspec refuses it before loading, with this reason.
        return {normalized(detail::descriptor_manifest(candidate, *loaded.descriptor)), std::move(refused), true, {}};
    }
    detail::StagingRegistrar staged(loaded.descriptor->name, candidate.path.string(), loaded.library);
    if (auto error = detail::read_tables(candidate, *loaded.descriptor, detail::LoadedSegments::now(), staged))
        return {std::nullopt, std::move(error), false, {}};
    PluginManifest manifest = staged.manifest(*loaded.descriptor);
    std::vector<std::string> notes = detail::compatibility_notes(manifest);
    return {std::move(manifest), std::nullopt, false, std::move(notes)};
}

}  // namespace famspec
