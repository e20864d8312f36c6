// load_plugins as the stages it runs, one function a stage:
//   find (plugin_candidates) -> trust (plugin_trust) -> manifest -> compatibility
//   (plugin_compatibility) -> open -> entry -> handshake -> register -> validate (plugin_conflicts,
//   plugin_links).
#include "famspec/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <iterator>
#include <mutex>
#include <variant>

#include "famspec/sdk/abi.hpp"
#include "plugin_candidates.hpp"
#include "plugin_compatibility.hpp"
#include "plugin_conflicts.hpp"
#include "plugin_links.hpp"
#include "plugin_refusal.hpp"
#include "plugin_trust.hpp"
#include "staging_registrar.hpp"

namespace famspec {
namespace fs = std::filesystem;
using detail::Candidate;
using detail::refusal;

namespace {

using Library = boost::dll::shared_library;

// Every dlopen and dlsym happens under this one lock.
std::mutex& loader_mutex() {
    static std::mutex mutex;
    return mutex;
}

// Libraries are never unloaded in normal operation: a destructor, vtable or deleter that runs after
// dlclose crashes the host. Deliberately leaked, so that no static destructor unloads them at exit.
std::vector<std::shared_ptr<Library>>& resident_libraries() {
    static auto* libraries = new std::vector<std::shared_ptr<Library>>();
    return *libraries;
}

// The one place dlerror text is cleaned: Boost.DLL appends an errno text unrelated to the failure,
// and the file is opened as /proc/self/fd/N, which the report names by its path instead.
std::string dlerror_text(const std::string& what, const Candidate& candidate) {
    static constexpr std::string_view kMarker = "dlerror system message: ";
    std::string text = what;
    if (const std::size_t begin = what.find(kMarker); begin != std::string::npos) {
        const std::size_t start = begin + kMarker.size();
        const std::size_t end = what.rfind("):");
        text = what.substr(start, end == std::string::npos || end < start ? std::string::npos : end - start);
    }
    const std::string alias = candidate.file.descriptor_path();
    for (std::size_t at = text.find(alias); at != std::string::npos; at = text.find(alias, at)) {
        text.replace(at, alias.size(), candidate.path.string());
        at += candidate.path.string().size();
    }
    return text;
}

void announce(const LoadOptions& options, const Candidate& candidate, PluginStage stage) {
    if (options.on_stage) options.on_stage(candidate.path.string(), stage);
}

// Stage manifest: the embedded manifest, parsed; nullopt when there is none and none is required.
std::optional<PluginError> read_manifest(const Candidate& candidate, bool require_manifest,
                                         std::optional<PluginManifest>& manifest) {
    const std::string path = candidate.path.string();
    if (!candidate.elf.is_elf) {
        return refusal(path, PluginStage::manifest, "an ELF shared object", candidate.elf.error,
                       "not a loadable plugin: " + candidate.elf.error);
    }
    if (!candidate.elf.manifest) {
        if (!require_manifest) return std::nullopt;
        return refusal(path, PluginStage::manifest, std::string("a ") + kManifestSection + " section",
                       "no such section",
                       std::string("carries no ") + kManifestSection +
                           " section; build it with famspec_add_plugin(), which embeds the manifest");
    }
    ManifestParse parsed = parse_manifest(*candidate.elf.manifest);
    if (!parsed.manifest) {
        return refusal(path, PluginStage::manifest, "a valid famspec manifest", parsed.error,
                       "corrupt manifest: " + parsed.error);
    }
    manifest = std::move(parsed.manifest);
    return std::nullopt;
}

// Stage compatibility, from the manifest: decided before any byte of the plugin is mapped.
std::optional<PluginError> check_manifest_compatibility(const Candidate& candidate, const PluginManifest& m) {
    return detail::check_compatibility(candidate.path.string(), PluginStage::compatibility,
                                       {m.name, m.abi_major, m.abi_minor, m.descriptor_size, m.fingerprint});
}

// Stages trust, manifest and compatibility: everything that can be known without mapping the file.
std::optional<PluginError> check_before_open(const Candidate& candidate, const LoadOptions& options,
                                             std::optional<PluginManifest>& manifest) {
    if (auto error = detail::check_trust(candidate, options)) return error;
    announce(options, candidate, PluginStage::manifest);
    if (auto error = read_manifest(candidate, options.require_manifest, manifest)) return error;
    if (manifest) return check_manifest_compatibility(candidate, *manifest);
    return std::nullopt;
}

struct Opened {
    std::shared_ptr<Library> library;
    const PluginDescriptor* descriptor = nullptr;
};

// Stage open: map the very file that was checked, through its descriptor, and refuse it if it
// changed since it was opened. No plugin function runs (static constructors aside).
std::variant<Opened, PluginError> open_library(Candidate& candidate) {
    const std::string path = candidate.path.string();
    Opened opened;
    try {
        opened.library = std::make_shared<Library>(candidate.file.descriptor_path(),
                                                   boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::system_error& error) {
        const std::string dl = dlerror_text(error.what(), candidate);
        return refusal(path, PluginStage::open, "a library whose symbols all resolve", dl, "cannot be loaded: " + dl,
                       dl);
    }
    resident_libraries().push_back(opened.library);
    candidate.file.keep_open_forever();  // the loader knows the library by /proc/self/fd/N from now on
    if (const std::string changed = candidate.file.changes_since_open(); !changed.empty()) {
        return refusal(path, PluginStage::open, "the file unchanged while it is loaded", changed,
                       "refused: the file changed while it was being loaded (" + changed +
                           "); deploy a plugin by writing a new file and renaming it into place");
    }
    return opened;
}

// Stage entry: the descriptor this file itself defines.
std::optional<PluginError> find_entry(const Candidate& candidate, Opened& opened) {
    const std::string path = candidate.path.string();
    if (!opened.library->has(kEntrySymbol)) {
        return refusal(path, PluginStage::entry, std::string("exported symbol ") + kEntrySymbol, "no such symbol",
                       std::string("exports no ") + kEntrySymbol + "; define the entry point with FAMSPEC_PLUGIN()");
    }
    opened.descriptor = &opened.library->get<const PluginDescriptor>(kEntrySymbol);
    if (opened.descriptor->magic != kPluginMagic) {
        return refusal(path, PluginStage::handshake, "the famspec descriptor magic", "another value",
                       "entry symbol is not a famspec plugin descriptor (bad magic)");
    }
    // dlsym may find a same-named symbol in a dependency; only this file's own entry is trusted.
    Dl_info info{};
    struct stat status {};
    const bool located =
        dladdr(opened.descriptor, &info) != 0 && info.dli_fname != nullptr && ::stat(info.dli_fname, &status) == 0;
    if (!located || !detail::FileIdentity::of(status).same_file(candidate.file.identity())) {
        const std::string from = info.dli_fname != nullptr ? info.dli_fname : "an unknown object";
        return refusal(path, PluginStage::entry, "the entry symbol defined in this file", from,
                       std::string("its ") + kEntrySymbol + " resolves to " + from + ", not to this file");
    }
    return std::nullopt;
}

detail::BuildClaim claim_of(const Candidate& candidate, const PluginDescriptor& d) {
    // Fields past the ABI numbers exist only in a descriptor long enough to have them.
    const bool complete = d.descriptor_size >= kMinDescriptorSize;
    detail::BuildClaim claim{.name = complete && d.name != nullptr ? d.name : candidate.path.stem().string(),
                             .abi_major = d.abi_major,
                             .abi_minor = d.abi_minor,
                             .descriptor_size = d.descriptor_size,
                             .fingerprint = std::nullopt};
    if (complete && d.fingerprint != nullptr) claim.fingerprint = d.fingerprint;
    return claim;
}

// Stage handshake: the descriptor's own claims, checked before its register function is trusted.
std::optional<PluginError> check_handshake(const Candidate& candidate, const PluginDescriptor& d) {
    const std::string path = candidate.path.string();
    if (auto error = detail::check_compatibility(path, PluginStage::handshake, claim_of(candidate, d))) return error;
    if (d.name == nullptr || d.register_plugin == nullptr) {
        return refusal(path, PluginStage::handshake, "a name and a register function", "none",
                       "descriptor has no name or no register function");
    }
    return std::nullopt;
}

// What a descriptor says about itself, for a plugin refused at the handshake.
PluginManifest descriptor_manifest(const Candidate& candidate, const PluginDescriptor& d) {
    const detail::BuildClaim claim = claim_of(candidate, d);
    const bool complete = d.descriptor_size >= kMinDescriptorSize;
    return PluginManifest{.name = claim.name,
                          .version = complete && d.version != nullptr ? d.version : "",
                          .description = complete && d.description != nullptr ? d.description : "",
                          .abi_major = claim.abi_major,
                          .abi_minor = claim.abi_minor,
                          .descriptor_size = claim.descriptor_size,
                          .fingerprint = claim.fingerprint.value_or(""),
                          .families = {},
                          .factories = {},
                          .archetypes = {},
                          .cp_wrappers = {},
                          .components = {}};
}

// Stages open, entry and handshake.
std::variant<Opened, PluginError> open_plugin(Candidate& candidate, const LoadOptions& options) {
    announce(options, candidate, PluginStage::open);
    auto opened = open_library(candidate);
    if (auto* library = std::get_if<Opened>(&opened)) {
        if (auto error = find_entry(candidate, *library)) return *std::move(error);
        if (auto error = check_handshake(candidate, *library->descriptor)) return *std::move(error);
    }
    return opened;
}

// Stage register: the only place plugin code runs. Exceptions stop at this boundary.
std::optional<PluginError> register_plugin(const Candidate& candidate, const PluginDescriptor& descriptor,
                                           detail::StagingRegistrar& registrar) {
    const std::string path = candidate.path.string();
    try {
        descriptor.register_plugin(registrar);
    } catch (const std::exception& error) {
        return refusal(path, PluginStage::register_, "registration to return",
                       std::string("exception: ") + error.what(), std::string("registration threw: ") + error.what());
    } catch (...) {
        return refusal(path, PluginStage::register_, "registration to return", "a non-standard exception",
                       "registration threw a non-standard exception");
    }
    if (!registrar.errors().empty()) {
        const std::string all = detail::joined(registrar.errors());
        return refusal(path, PluginStage::register_, "valid, unique declarations", all,
                       "registration rejected: " + all);
    }
    return std::nullopt;
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
    PluginManifest manifest;
    std::unique_ptr<detail::StagingRegistrar> registrar;
};

std::variant<Staged, PluginError> load_candidate(Candidate& candidate, const LoadOptions& options,
                                                 PluginRecord& record) {
    if (auto error = check_before_open(candidate, options, record.manifest)) return *std::move(error);
    auto opened = open_plugin(candidate, options);
    if (auto* error = std::get_if<PluginError>(&opened)) return std::move(*error);
    const Opened& plugin = std::get<Opened>(opened);
    auto registrar = std::make_unique<detail::StagingRegistrar>(plugin.descriptor->name, record.path, plugin.library);
    announce(options, candidate, PluginStage::register_);
    if (auto error = register_plugin(candidate, *plugin.descriptor, *registrar)) return *std::move(error);
    announce(options, candidate, PluginStage::validate);
    PluginManifest registered = registrar->manifest(*plugin.descriptor);
    if (record.manifest) {
        if (auto error = check_drift(candidate, *record.manifest, registered)) return *std::move(error);
    } else {
        record.manifest = registered;
    }
    return Staged{0, std::move(registered), std::move(registrar)};
}

// Stage validate, across plugins: a claim two plugins make is refused for both.
void refuse_shared_claims(std::vector<Staged>& staged, std::vector<PluginRecord>& records) {
    std::vector<detail::Claimant> claimants;
    for (const Staged& plugin : staged) claimants.push_back({&plugin.manifest, records[plugin.record].path});
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
        for (const auto& component : plugin.registrar->components) {
            const std::string name(component->name());
            links.provides.push_back(std::string(component->defining_module()) + "." + name);
            links.provides.push_back(std::string(component->import_module()) + "." + name);
        }
        for (const auto& factory : plugin.registrar->factories) {
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
        commit(contents.families, plugin.registrar->families);
        commit(contents.factories, plugin.registrar->factories);
        commit(contents.archetypes, plugin.registrar->archetypes);
        commit(contents.cp_wrappers, plugin.registrar->cp_wrappers);
        commit(contents.components, plugin.registrar->components);
    }
    contents.plugins = std::move(records);
    return contents;
}

void log_records(const LoadOptions& options, const std::vector<PluginRecord>& records) {
    if (!options.log) return;
    for (const PluginRecord& record : records) {
        if (record.ok())
            options.log(LogLevel::info, "loaded plugin " + record.path);
        else
            options.log(LogLevel::error, record.error->message);
    }
}

std::vector<PluginRecord> search_records(const LoadOptions& options) {
    std::vector<PluginRecord> records;
    for (const PluginError& error : options.search_errors) records.push_back(detail::refused_record(error));
    return records;
}

}  // namespace

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options) {
    const std::lock_guard lock(loader_mutex());
    std::vector<PluginRecord> records = search_records(options);
    std::vector<Candidate> candidates = detail::find_candidates(options, records);
    std::vector<Staged> staged;
    for (Candidate& candidate : candidates) {
        records.push_back(detail::record_of(candidate));
        auto loaded = load_candidate(candidate, options, records.back());
        if (auto* error = std::get_if<PluginError>(&loaded)) {
            records.back().error = std::move(*error);
            continue;
        }
        staged.push_back(std::move(std::get<Staged>(loaded)));
        staged.back().record = records.size() - 1;
    }
    refuse_shared_claims(staged, records);
    if (options.require_components) refuse_unlinked(staged, records);
    log_records(options, records);
    return std::make_shared<const Registry>(freeze(staged, std::move(records)));
}

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
    std::vector<PluginRecord> records = search_records(options);
    for (const Candidate& candidate : detail::find_candidates(options, records)) {
        PluginRecord record = detail::record_of(candidate);
        LoadOptions manifest_required = options;
        manifest_required.on_stage = {};
        manifest_required.require_manifest = true;
        record.error = check_before_open(candidate, manifest_required, record.manifest);
        records.push_back(std::move(record));
    }
    return records;
}

ManifestGeneration generate_manifest(const fs::path& plugin) {
    LoadOptions options;
    options.files.push_back(plugin);
    options.require_manifest = false;
    options.require_components = false;
    options.allow_insecure = true;  // a build tree is the author's own business
    const std::lock_guard lock(loader_mutex());
    std::vector<PluginRecord> records;
    std::vector<Candidate> candidates = detail::find_candidates(options, records);
    if (candidates.empty()) return {std::nullopt, records.empty() ? std::nullopt : records.front().error, false};
    Candidate& candidate = candidates.front();
    std::optional<PluginManifest> ignored;
    if (!candidate.elf.is_elf) return {std::nullopt, read_manifest(candidate, false, ignored), false};
    auto opened = open_library(candidate);
    if (auto* error = std::get_if<PluginError>(&opened)) return {std::nullopt, std::move(*error), false};
    Opened& loaded = std::get<Opened>(opened);
    if (auto error = find_entry(candidate, loaded)) return {std::nullopt, std::move(error), false};
    if (auto refused = check_handshake(candidate, *loaded.descriptor)) {
        // Still describe it, so that every famspec refuses it before loading, with this reason.
        return {normalized(descriptor_manifest(candidate, *loaded.descriptor)), std::move(refused), true};
    }
    detail::StagingRegistrar staged(loaded.descriptor->name, candidate.path.string(), loaded.library);
    if (auto error = register_plugin(candidate, *loaded.descriptor, staged))
        return {std::nullopt, std::move(error), false};
    return {staged.manifest(*loaded.descriptor), std::nullopt, false};
}

}  // namespace famspec
