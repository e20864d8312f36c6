#include "famspec/plugin_loader.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <mutex>
#include <set>
#include <variant>

#include "famspec/elf_file.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "plugin_conflicts.hpp"
#include "staging_registrar.hpp"

namespace famspec {
namespace fs = std::filesystem;
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

std::string abi_text(unsigned major, unsigned minor) { return std::to_string(major) + "." + std::to_string(minor); }

std::string core_side() { return "ABI " + abi_text(kAbiMajor, kAbiMinor) + ", " + std::string(core_fingerprint()); }

PluginError error_at(const std::string& path, PluginStage stage, std::string expected, std::string found,
                     std::string message, std::string system_message = {}) {
    return PluginError{path,
                       stage,
                       std::move(expected),
                       std::move(found),
                       std::move(system_message),
                       path + ": " + std::move(message)};
}

// Boost.DLL appends an errno text that is unrelated to the failure; keep only dlerror's words.
std::string dlerror_part(const std::string& what) {
    static constexpr std::string_view kMarker = "dlerror system message: ";
    const std::size_t begin = what.find(kMarker);
    if (begin == std::string::npos) return what;
    const std::size_t start = begin + kMarker.size();
    const std::size_t end = what.rfind("):");
    return what.substr(start, end == std::string::npos || end < start ? std::string::npos : end - start);
}

std::string joined(const std::vector<std::string>& items) {
    std::string all;
    for (const auto& item : items) all += (all.empty() ? "" : "; ") + item;
    return all;
}

struct Candidate {
    fs::path path;
    std::vector<std::string> paths;
    ElfInfo elf;
    dev_t device = 0;
    ino_t inode = 0;
};

bool is_candidate_file(const fs::directory_entry& entry) {
    std::error_code ec;
    return entry.path().extension() == ".so" && entry.is_regular_file(ec);
}

// Candidates in search order (path order, then byte-wise file name), one per distinct file.
std::vector<Candidate> discover(const LoadOptions& options, std::vector<PluginRecord>& records) {
    std::vector<fs::path> files;
    for (const fs::path& directory : options.directories) {
        std::error_code ec;
        if (!fs::is_directory(directory, ec)) {
            records.push_back({directory.string(),
                               {directory.string()},
                               {},
                               {},
                               error_at(directory.string(), PluginStage::find, "a plugin directory",
                                        ec ? ec.message() : "not a directory",
                                        "plugin directory does not exist or is not a directory")});
            continue;
        }
        std::vector<fs::path> here;
        for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
            if (is_candidate_file(*it)) here.push_back(it->path());
        }
        if (ec) {
            records.push_back({directory.string(),
                               {directory.string()},
                               {},
                               {},
                               error_at(directory.string(), PluginStage::find, "a readable directory", ec.message(),
                                        "cannot list plugin directory")});
        }
        std::sort(here.begin(), here.end(),
                  [](const fs::path& a, const fs::path& b) { return a.filename().string() < b.filename().string(); });
        files.insert(files.end(), here.begin(), here.end());
    }
    files.insert(files.end(), options.files.begin(), options.files.end());

    std::vector<Candidate> candidates;
    for (const fs::path& file : files) {
        struct stat status {};
        if (::stat(file.c_str(), &status) != 0) {
            records.push_back({file.string(),
                               {file.string()},
                               {},
                               {},
                               error_at(file.string(), PluginStage::find, "a plugin file", "no such file",
                                        "plugin file does not exist")});
            continue;
        }
        ElfInfo elf = read_elf_info(file.string());
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) {
            const bool same_inode = c.device == status.st_dev && c.inode == status.st_ino;
            const bool same_build = !elf.build_id.empty() && c.elf.build_id == elf.build_id;
            return same_inode || same_build;
        });
        if (same != candidates.end()) {
            // The same directory may be searched twice (D and D/): list each path once.
            if (std::find(same->paths.begin(), same->paths.end(), file.string()) == same->paths.end()) {
                same->paths.push_back(file.string());
            }
            continue;
        }
        candidates.push_back({file, {file.string()}, std::move(elf), status.st_dev, status.st_ino});
    }
    return candidates;
}

// Stages manifest and compatibility: everything that can be known without running plugin code.
std::optional<PluginError> check_manifest(const Candidate& candidate, std::optional<PluginManifest>& manifest,
                                          bool require_manifest) {
    const std::string path = candidate.path.string();
    if (!candidate.elf.is_elf) {
        return error_at(path, PluginStage::manifest, "an ELF shared object", candidate.elf.error,
                        "not a loadable plugin: " + candidate.elf.error);
    }
    if (!candidate.elf.manifest) {
        if (!require_manifest) return std::nullopt;
        return error_at(path, PluginStage::manifest, std::string("a ") + kManifestSection + " section",
                        "no such section",
                        std::string("carries no ") + kManifestSection +
                            " section; build it with famspec_add_plugin(), which embeds the manifest");
    }
    ManifestParse parsed = parse_manifest(*candidate.elf.manifest);
    if (!parsed.manifest) {
        return error_at(path, PluginStage::manifest, "a valid famspec manifest", parsed.error,
                        "corrupt manifest: " + parsed.error);
    }
    manifest = std::move(parsed.manifest);
    const PluginManifest& m = *manifest;
    const std::string plugin_side = "ABI " + abi_text(m.abi_major, m.abi_minor) + ", " + m.fingerprint;
    auto incompatible = [&](const std::string& why) {
        return error_at(path, PluginStage::compatibility, core_side(), plugin_side,
                        "plugin '" + m.name + "' " + why + "; built for " + plugin_side + "; this core is " +
                            core_side() + "; rebuild it against famspec " + std::string(core_version()) +
                            " with the same compiler and flags");
    };
    if (m.abi_major != kAbiMajor) return incompatible("has ABI major " + std::to_string(m.abi_major));
    if (m.abi_minor > kAbiMinor)
        return incompatible("needs a newer core (ABI minor " + std::to_string(m.abi_minor) + ")");
    if (m.descriptor_size < kMinDescriptorSize) {
        return incompatible("has a " + std::to_string(m.descriptor_size) + "-byte descriptor, shorter than " +
                            std::to_string(kMinDescriptorSize));
    }
    if (const auto differences = fingerprint_differences(m.fingerprint, core_fingerprint()); !differences.empty()) {
        return incompatible("has a different build fingerprint (" + joined(differences) + ")");
    }
    return std::nullopt;
}

template <class T>
std::shared_ptr<const T> bound_to(std::shared_ptr<const T> object, const std::shared_ptr<Library>& library) {
    const T* raw = object.get();
    // The plugin's own deleter runs first, then the library reference is dropped.
    return std::shared_ptr<const T>(raw, [object = std::move(object), library](const T*) mutable { object.reset(); });
}

template <class T>
void commit(std::vector<T>& into, std::vector<T>& staged, const std::shared_ptr<Library>& library) {
    for (T& item : staged) {
        item.object = bound_to(std::move(item.object), library);
        into.push_back(std::move(item));
    }
}

struct Opened {
    std::shared_ptr<Library> library;
    const PluginDescriptor* descriptor = nullptr;
};

// Stages open and entry: map the file and find its own descriptor. No plugin function runs.
std::variant<Opened, PluginError> open_entry(const Candidate& candidate) {
    const std::string path = candidate.path.string();
    Opened opened;
    try {
        opened.library = std::make_shared<Library>(candidate.path,
                                                   boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::system_error& error) {
        const std::string dl = dlerror_part(error.what());
        return error_at(path, PluginStage::open, "a library whose symbols all resolve", dl, "cannot be loaded: " + dl,
                        dl);
    }
    resident_libraries().push_back(opened.library);
    if (!opened.library->has(kEntrySymbol)) {
        return error_at(path, PluginStage::entry, std::string("exported symbol ") + kEntrySymbol, "no such symbol",
                        std::string("exports no ") + kEntrySymbol + "; define the entry point with FAMSPEC_PLUGIN()");
    }
    opened.descriptor = &opened.library->get<const PluginDescriptor>(kEntrySymbol);
    // dlsym may find a same-named symbol in a dependency; only this file's own entry is trusted.
    Dl_info info{};
    std::error_code ec;
    if (dladdr(opened.descriptor, &info) == 0 || info.dli_fname == nullptr ||
        !fs::equivalent(fs::path(info.dli_fname), candidate.path, ec)) {
        const std::string from = info.dli_fname != nullptr ? info.dli_fname : "an unknown object";
        return error_at(path, PluginStage::entry, "the entry symbol defined in this file", from,
                        std::string("its ") + kEntrySymbol + " resolves to " + from + ", not to this file");
    }
    if (opened.descriptor->magic != kPluginMagic) {
        return error_at(path, PluginStage::handshake, "the famspec descriptor magic", "another value",
                        "entry symbol is not a famspec plugin descriptor (bad magic)");
    }
    return opened;
}

// Stage handshake: the descriptor's own claims, checked before its register function is trusted.
std::optional<PluginError> check_handshake(const std::string& path, const PluginDescriptor& d) {
    const std::string plugin_side = "ABI " + abi_text(d.abi_major, d.abi_minor) + ", " +
                                    (d.fingerprint != nullptr ? d.fingerprint : "(no fingerprint)");
    auto refuse = [&](const std::string& why) {
        return error_at(path, PluginStage::handshake, core_side(), plugin_side,
                        why + "; built for " + plugin_side + "; this core is " + core_side() +
                            "; rebuild it against famspec " + std::string(core_version()) +
                            " with the same compiler and flags");
    };
    if (d.descriptor_size < kMinDescriptorSize) {
        return refuse("descriptor is " + std::to_string(d.descriptor_size) + " bytes, shorter than " +
                      std::to_string(kMinDescriptorSize));
    }
    if (d.abi_major != kAbiMajor) return refuse("ABI major " + std::to_string(d.abi_major) + " differs");
    if (d.abi_minor > kAbiMinor) {
        return refuse("ABI minor " + std::to_string(d.abi_minor) + " is newer than the core's");
    }
    if (d.fingerprint == nullptr) return refuse("descriptor has no build fingerprint");
    if (const auto differences = fingerprint_differences(d.fingerprint, core_fingerprint()); !differences.empty()) {
        return refuse("build fingerprint differs (" + joined(differences) + ")");
    }
    if (d.name == nullptr || d.register_plugin == nullptr) {
        return refuse("descriptor has no name or no register function");
    }
    return std::nullopt;
}

std::variant<Opened, PluginError> open_plugin(const Candidate& candidate) {
    auto opened = open_entry(candidate);
    if (const auto* entry = std::get_if<Opened>(&opened)) {
        if (auto error = check_handshake(candidate.path.string(), *entry->descriptor)) return *std::move(error);
    }
    return opened;
}

// What a descriptor says about itself, for a plugin refused at the handshake. Fields beyond the
// ABI numbers are read only when the descriptor is long enough to have them.
PluginManifest descriptor_manifest(const Candidate& candidate, const PluginDescriptor& d) {
    PluginManifest manifest;
    manifest.abi_major = d.abi_major;
    manifest.abi_minor = d.abi_minor;
    manifest.descriptor_size = d.descriptor_size;
    if (d.descriptor_size >= kMinDescriptorSize) {
        manifest.fingerprint = d.fingerprint != nullptr ? d.fingerprint : "";
        manifest.name = d.name != nullptr ? d.name : "";
        manifest.version = d.version != nullptr ? d.version : "";
        manifest.description = d.description != nullptr ? d.description : "";
    }
    if (manifest.name.empty()) manifest.name = candidate.path.stem().string();
    return manifest;
}

struct Loaded {
    PluginManifest manifest;
    detail::StagingRegistrar staged;
};

// Stage register: the only place plugin code runs. Exceptions stop at this boundary.
std::optional<PluginError> register_plugin(const Candidate& candidate, const PluginDescriptor& descriptor,
                                           detail::StagingRegistrar& registrar) {
    const std::string path = candidate.path.string();
    try {
        descriptor.register_plugin(registrar);
    } catch (const std::exception& error) {
        return error_at(path, PluginStage::register_, "registration to return",
                        std::string("exception: ") + error.what(), std::string("registration threw: ") + error.what());
    } catch (...) {
        return error_at(path, PluginStage::register_, "registration to return", "a non-standard exception",
                        "registration threw a non-standard exception");
    }
    if (!registrar.errors().empty()) {
        const std::string all = joined(registrar.errors());
        return error_at(path, PluginStage::register_, "valid, unique declarations", all,
                        "registration rejected: " + all);
    }
    return std::nullopt;
}

std::optional<PluginError> conflict_error(const detail::ClaimTable& claims, const PluginManifest& manifest,
                                          const std::string& path) {
    const auto conflicts = claims.conflicts(manifest);
    if (conflicts.empty()) return std::nullopt;
    const std::string all = joined(conflicts);
    return error_at(path, PluginStage::validate, "declarations no other plugin registers", all,
                    "duplicate registration: " + all);
}

void log_record(const LoadOptions& options, const PluginRecord& record) {
    if (!options.log) return;
    if (record.ok())
        options.log(LogLevel::info, "loaded plugin " + record.path);
    else
        options.log(LogLevel::error, record.error->message);
}

}  // namespace

SearchPath plugin_search_path(const std::vector<std::string>& explicit_paths,
                              const std::optional<std::string>& environment, const fs::path& default_directory) {
    SearchPath search;
    std::vector<std::string> entries;
    if (!explicit_paths.empty()) {
        search.origin = SearchPath::Origin::flag;
        entries = explicit_paths;
    } else if (environment.has_value() && environment->find_first_not_of(':') != std::string::npos) {
        // An empty variable (FAMSPEC_PLUGIN_PATH=) counts as unset rather than as "search nothing".
        search.origin = SearchPath::Origin::environment;
        std::size_t start = 0;
        while (start <= environment->size()) {
            const std::size_t colon = environment->find(':', start);
            std::string entry = environment->substr(start, colon - start);
            if (!entry.empty()) entries.push_back(std::move(entry));
            if (colon == std::string::npos) break;
            start = colon + 1;
        }
    } else {
        search.origin = SearchPath::Origin::default_directory;
        search.directories.push_back(default_directory);
        return search;
    }
    for (const std::string& entry : entries) {
        const fs::path directory(entry);
        if (directory.is_relative()) {
            search.errors.push_back(error_at(entry, PluginStage::find, "an absolute directory", "a relative path",
                                             "relative plugin path ignored: plugin paths are never resolved against "
                                             "the working directory; give an absolute path"));
            continue;
        }
        search.directories.push_back(directory.lexically_normal());
    }
    return search;
}

fs::path default_plugin_directory(const fs::path& executable) {
    std::error_code ec;
    fs::path resolved = fs::canonical(executable, ec);
    if (ec) resolved = executable;
    return (resolved.parent_path() / ".." / "lib" / "famspec" / "plugins").lexically_normal();
}

LoadOptions load_options_for(const SearchPath& search, LogCallback log) {
    LoadOptions options;
    options.directories = search.directories;
    options.search_errors = search.errors;
    options.log = std::move(log);
    return options;
}

std::shared_ptr<const Registry> load_plugins(const LoadOptions& options) {
    const std::lock_guard lock(loader_mutex());
    Registry::Contents contents;
    for (const PluginError& error : options.search_errors) {
        contents.plugins.push_back({error.path, {error.path}, {}, {}, error});
    }
    const std::vector<Candidate> candidates = discover(options, contents.plugins);
    detail::ClaimTable claims;
    for (const Candidate& candidate : candidates) {
        PluginRecord record{candidate.path.string(), candidate.paths, candidate.elf.build_id, {}, {}};
        auto finish = [&](std::optional<PluginError> error) {
            record.error = std::move(error);
            log_record(options, record);
            contents.plugins.push_back(std::move(record));
        };
        auto enter = [&](PluginStage stage) {
            if (options.on_stage) options.on_stage(record.path, stage);
        };
        enter(PluginStage::manifest);
        if (auto error = check_manifest(candidate, record.manifest, options.require_manifest)) {
            finish(std::move(error));
            continue;
        }
        enter(PluginStage::open);
        auto opened = open_plugin(candidate);
        if (auto* error = std::get_if<PluginError>(&opened)) {
            finish(std::move(*error));
            continue;
        }
        const Opened& plugin = std::get<Opened>(opened);
        detail::StagingRegistrar staged(plugin.descriptor->name, record.path);
        enter(PluginStage::register_);
        if (auto error = register_plugin(candidate, *plugin.descriptor, staged)) {
            finish(std::move(error));
            continue;
        }
        enter(PluginStage::validate);
        const PluginManifest registered = staged.manifest(*plugin.descriptor);
        if (record.manifest) {
            if (const auto drift = manifest_differences(*record.manifest, registered); !drift.empty()) {
                const std::string all = joined(drift);
                finish(error_at(record.path, PluginStage::validate, "the manifest to match the registration", all,
                                "manifest drift: " + all + "; rebuild the plugin so its manifest is regenerated"));
                continue;
            }
        } else {
            record.manifest = registered;
        }
        if (auto error = conflict_error(claims, registered, record.path)) {
            finish(std::move(error));
            continue;
        }
        claims.accept(registered, record.path);
        commit(contents.families, staged.families, plugin.library);
        commit(contents.factories, staged.factories, plugin.library);
        commit(contents.archetypes, staged.archetypes, plugin.library);
        commit(contents.cp_wrappers, staged.cp_wrappers, plugin.library);
        commit(contents.components, staged.components, plugin.library);
        finish(std::nullopt);
    }
    return std::make_shared<const Registry>(std::move(contents));
}

void mark_conflicts(std::vector<PluginRecord>& records) {
    detail::ClaimTable claims;
    for (PluginRecord& record : records) {
        if (!record.ok() || !record.manifest) continue;
        if (auto error = conflict_error(claims, *record.manifest, record.path)) {
            record.error = std::move(error);
            continue;
        }
        claims.accept(*record.manifest, record.path);
    }
}

std::vector<PluginRecord> inspect_plugins(const LoadOptions& options) {
    std::vector<PluginRecord> records = inspect_candidates(options);
    mark_conflicts(records);
    return records;
}

std::vector<PluginRecord> inspect_candidates(const LoadOptions& options) {
    std::vector<PluginRecord> records;
    for (const PluginError& error : options.search_errors) records.push_back({error.path, {error.path}, {}, {}, error});
    for (const Candidate& candidate : discover(options, records)) {
        PluginRecord record{candidate.path.string(), candidate.paths, candidate.elf.build_id, {}, {}};
        record.error = check_manifest(candidate, record.manifest, true);
        records.push_back(std::move(record));
    }
    return records;
}

ManifestGeneration generate_manifest(const fs::path& plugin) {
    LoadOptions options;
    options.files.push_back(plugin);
    options.require_manifest = false;
    const std::lock_guard lock(loader_mutex());
    std::vector<PluginRecord> records;
    const std::vector<Candidate> candidates = discover(options, records);
    if (candidates.empty()) return {std::nullopt, records.empty() ? std::nullopt : records.front().error, false};
    const Candidate& candidate = candidates.front();
    std::optional<PluginManifest> ignored;
    if (!candidate.elf.is_elf) return {std::nullopt, check_manifest(candidate, ignored, false), false};
    auto opened = open_entry(candidate);
    if (auto* error = std::get_if<PluginError>(&opened)) return {std::nullopt, std::move(*error), false};
    const Opened& loaded = std::get<Opened>(opened);
    if (auto refused = check_handshake(candidate.path.string(), *loaded.descriptor)) {
        // Still describe it, so that every famspec refuses it before loading, with this reason.
        return {normalized(descriptor_manifest(candidate, *loaded.descriptor)), std::move(refused), true};
    }
    detail::StagingRegistrar staged(loaded.descriptor->name, candidate.path.string());
    if (auto error = register_plugin(candidate, *loaded.descriptor, staged)) {
        return {std::nullopt, std::move(error), false};
    }
    return {staged.manifest(*loaded.descriptor), std::nullopt, false};
}

}  // namespace famspec
