// Where plugins are searched and what the host's environment asks of the loader.
#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <cstring>

#include "discovery/plugin_refusal.hpp"
#include "famspec/required_digests.hpp"
#include "famspec/search_path.hpp"

namespace famspec {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> secure_variable(const char* name) {
    const char* value = ::secure_getenv(name);  // NOLINT(concurrency-mt-unsafe): read, never written
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
}

std::vector<std::string> colon_separated(const std::string& value) {
    std::vector<std::string> entries;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t colon = value.find(':', start);
        std::string entry = value.substr(start, colon - start);
        if (!entry.empty()) entries.push_back(std::move(entry));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return entries;
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
        entries = colon_separated(*environment);
    } else {
        search.origin = SearchPath::Origin::default_directory;
        search.directories.push_back(default_directory);
        return search;
    }
    for (const std::string& entry : entries) {
        const fs::path directory(entry);
        if (directory.is_relative()) {
            search.errors.push_back(detail::refusal(entry, PluginStage::find, "an absolute directory",
                                                    "a relative path",
                                                    "relative plugin path ignored: plugin paths are never resolved "
                                                    "against the working directory; give an absolute path"));
            continue;
        }
        search.directories.push_back(directory.lexically_normal());
    }
    return search;
}

fs::path default_plugin_directory() {
    // Anchored on this library, not on the executable: a Python interpreter or any other host
    // embeds famspec from wherever the package installed it. Linked into a program instead (the
    // famspec command links the core's archive), the program's <bin>/../lib is where the library
    // would be; dladdr names a program only by its argv[0], so it is read from /proc/self/exe.
    Dl_info info{};
    link_map* object = nullptr;
    if (::dladdr1(reinterpret_cast<const void*>(&default_plugin_directory), &info, reinterpret_cast<void**>(&object),
                  RTLD_DL_LINKMAP) == 0 ||
        info.dli_fname == nullptr || object == nullptr) {
        return {};
    }
    const bool in_program = object->l_name == nullptr || object->l_name[0] == '\0';
    const fs::path file = in_program ? fs::path("/proc/self/exe") : fs::path(info.dli_fname);
    std::error_code ec;
    fs::path resolved = fs::canonical(file, ec);
    if (ec) {
        if (in_program) return {};
        resolved = file;
    }
    const fs::path library_dir = in_program ? resolved.parent_path().parent_path() / "lib" : resolved.parent_path();
    return (library_dir / "famspec" / "plugins").lexically_normal();
}

LoadOptions load_options_for(const SearchPath& search, LogCallback log) {
    LoadOptions options;
    options.directories = search.directories;
    options.search_errors = search.errors;
    options.log = std::move(log);
    return options;
}

LoadOptions load_options_from_environment(const std::vector<std::string>& explicit_paths, LogCallback log) {
    LoadOptions options = load_options_for(
        plugin_search_path(explicit_paths, secure_variable(kPluginPathVariable), default_plugin_directory()),
        std::move(log));
    options.allow_insecure = secure_variable(kAllowInsecureVariable) == "1";
    if (const auto digests = secure_variable(kRequireDigestsVariable)) {
        if (digests->empty()) {
            // Set but empty is never "no pins": fail closed, as for a list that cannot be used.
            options.required_digests.emplace();
            options.search_errors.push_back(detail::refusal(
                kRequireDigestsVariable, PluginStage::trust, "the path of a digest list", "an empty value",
                std::string("cannot use the required digests: ") + kRequireDigestsVariable +
                    " is set but empty; name a digest list, or unset it to load without pinned digests"));
        } else {
            require_digests(options, *digests);
        }
    }
    return options;
}

void require_digests(LoadOptions& options, const fs::path& file) {
    RequiredDigests read = read_required_digests(file);
    if (read) {
        options.required_digests = std::move(read).value();
        return;
    }
    // Fail closed: nothing is pinned, so nothing loads, and the reason is reported once.
    options.required_digests.emplace();
    options.search_errors.push_back(detail::refusal(file.string(), PluginStage::trust, "a readable digest list",
                                                    read.error(), "cannot use the required digests: " + read.error()));
}

}  // namespace famspec
