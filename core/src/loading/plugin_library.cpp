#include "loading/plugin_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include "discovery/plugin_refusal.hpp"
#include "loading/plugin_compatibility.hpp"

namespace famspec::detail {
namespace {

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

BuildClaim claim_of(const Candidate& candidate, const PluginDescriptor& d) {
    // Fields past the ABI numbers exist only in a descriptor long enough to have them.
    const bool complete = d.descriptor_size >= kMinDescriptorSize;
    BuildClaim claim{.name = complete && d.name != nullptr ? d.name : candidate.path.stem().string(),
                     .abi_major = d.abi_major,
                     .abi_minor = d.abi_minor,
                     .descriptor_size = d.descriptor_size,
                     .fingerprint = std::nullopt};
    if (complete && d.fingerprint != nullptr) claim.fingerprint = d.fingerprint;
    return claim;
}

}  // namespace

std::mutex& loader_mutex() {
    static std::mutex mutex;
    return mutex;
}

Expected<Opened, PluginError> open_library(Candidate& candidate) {
    const std::string path = candidate.path.string();
    Opened opened;
    try {
        opened.library = std::make_shared<Library>(candidate.file.descriptor_path(),
                                                   boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::system_error& error) {
        const std::string dl = dlerror_text(error.what(), candidate);
        return unexpected(
            refusal(path, PluginStage::open, "a library whose symbols all resolve", dl, "cannot be loaded: " + dl, dl));
    }
    resident_libraries().push_back(opened.library);
    candidate.file.keep_open_forever();  // the loader knows the library by /proc/self/fd/N from now on
    if (const std::string changed = candidate.file.changes_since_open(); !changed.empty()) {
        return unexpected(refusal(path, PluginStage::open, "the file unchanged while it is loaded", changed,
                                  "refused: the file changed while it was being loaded (" + changed +
                                      "); deploy a plugin by writing a new file and renaming it into place"));
    }
    return opened;
}

Expected<const PluginDescriptor*, PluginError> find_entry(const Candidate& candidate, const Opened& opened) {
    const std::string path = candidate.path.string();
    if (!opened.library->has(kEntrySymbol)) {
        return unexpected(
            refusal(path, PluginStage::entry, std::string("exported symbol ") + kEntrySymbol, "no such symbol",
                    std::string("exports no ") + kEntrySymbol + "; define the entry point with FAMSPEC_PLUGIN()"));
    }
    const PluginDescriptor* descriptor = &opened.library->get<const PluginDescriptor>(kEntrySymbol);
    if (descriptor->magic != kPluginMagic) {
        return unexpected(refusal(path, PluginStage::handshake, "the famspec descriptor magic", "another value",
                                  "entry symbol is not a famspec plugin descriptor (bad magic)"));
    }
    // dlsym may find a same-named symbol in a dependency; only this file's own entry is trusted.
    Dl_info info{};
    struct stat status {};
    const bool located = dladdr(descriptor, &info) != 0 && info.dli_fname != nullptr;
    // The loader knows this file by its descriptor path, which names no other file while the process lives.
    const bool here =
        located &&
        (info.dli_fname == candidate.file.descriptor_path() ||
         (::stat(info.dli_fname, &status) == 0 && FileIdentity::of(status).same_file(candidate.file.identity())));
    if (!here) {
        const std::string from = info.dli_fname != nullptr ? info.dli_fname : "an unknown object";
        return unexpected(refusal(path, PluginStage::entry, "the entry symbol defined in this file", from,
                                  std::string("its ") + kEntrySymbol + " resolves to " + from + ", not to this file"));
    }
    return descriptor;
}

std::optional<PluginError> check_handshake(const Candidate& candidate, const PluginDescriptor& d) {
    const std::string path = candidate.path.string();
    if (auto error = check_compatibility(path, PluginStage::handshake, claim_of(candidate, d))) return error;
    if (d.name == nullptr || d.tables == nullptr) {
        return refusal(path, PluginStage::handshake, "a name and tables", "none",
                       "descriptor has no name or no tables");
    }
    return std::nullopt;
}

PluginManifest descriptor_manifest(const Candidate& candidate, const PluginDescriptor& d) {
    const BuildClaim claim = claim_of(candidate, d);
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

}  // namespace famspec::detail
