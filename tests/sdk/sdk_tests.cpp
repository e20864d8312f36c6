// The SDK's promises: it is header-only (a plugin needs no famspec library and exports only its
// descriptor), and a family computed at compile time loads like a written one.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/sdk/abi.hpp"
#include "process.hpp"

namespace fs = std::filesystem;
using famspec::test::run_process;

namespace {

std::vector<fs::path> shipped_plugins() {
    std::vector<fs::path> plugins;
    for (const auto& entry : fs::directory_iterator(famspec::test::plugin_dir())) {
        if (entry.path().extension() == ".so") plugins.push_back(entry.path());
    }
    REQUIRE_FALSE(plugins.empty());
    return plugins;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The libraries in `readelf -d`'s NEEDED entries.
std::vector<std::string> needed(const fs::path& library) {
    const auto result = run_process({FAMSPEC_TEST_READELF, "-d", "-W", library.string()});
    REQUIRE(result.exit_code == 0);
    std::vector<std::string> out;
    for (const std::string& line : lines_of(result.out)) {
        const std::size_t open = line.find("(NEEDED)");
        if (open == std::string::npos) continue;
        const std::size_t begin = line.find('[');
        const std::size_t end = line.find(']', begin);
        REQUIRE(end != std::string::npos);
        out.push_back(line.substr(begin + 1, end - begin - 1));
    }
    return out;
}

// Symbols the library defines and exports (not UND), from `readelf --dyn-syms`.
std::set<std::string> exported(const fs::path& library) {
    const auto result = run_process({FAMSPEC_TEST_READELF, "--dyn-syms", "-W", library.string()});
    REQUIRE(result.exit_code == 0);
    std::set<std::string> out;
    for (const std::string& line : lines_of(result.out)) {
        std::istringstream fields(line);
        std::string num, value, size, type, bind, visibility, ndx, name;
        if (!(fields >> num >> value >> size >> type >> bind >> visibility >> ndx >> name)) continue;
        if (num.back() != ':' || ndx == "UND" || (bind != "GLOBAL" && bind != "WEAK")) continue;
        out.insert(name.substr(0, name.find('@')));
    }
    return out;
}

// What a library needs beyond a sanitizer's runtime: a sanitized build links the runtime (and what
// it needs) into every library, code or none.
std::vector<std::string> needed_of_its_own(const fs::path& library) {
    std::vector<std::string> own = needed(library);
    const bool sanitized = std::string_view(FAMSPEC_FP_ASAN) != "none" || std::string_view(FAMSPEC_FP_TSAN) != "none";
    if (!sanitized) return own;
    std::erase_if(own, [](const std::string& name) {
        for (const char* runtime : {"libasan.", "libubsan.", "libtsan.", "libstdc++.", "libm.", "libgcc_s.", "libc."}) {
            if (name.starts_with(runtime)) return true;
        }
        return false;
    });
    return own;
}

}  // namespace

TEST_CASE("a shipped plugin needs no famspec library and exports only its descriptor") {
    for (const fs::path& plugin : shipped_plugins()) {
        INFO(plugin.string());
        // The parse sees the entries where there are some (the next test); a plugin of tables has none.
        for (const std::string& library : needed(plugin)) CHECK(library.find("famspec") == std::string::npos);
        CHECK(exported(plugin) == std::set<std::string>{"famspec_plugin_descriptor"});
    }
    // The component catalogue is tables: constant data and no code, so it needs no library at all.
    CHECK(needed_of_its_own(fs::path(famspec::test::plugin_dir()) / "famspec_components.so").empty());
}

TEST_CASE("the NEEDED check sees a dependency where there is one") {
    // libfamspec.so links yaml-cpp: the same parse must report it, or the check above proves nothing.
    const std::vector<std::string> libraries = needed(FAMSPEC_TEST_CORE_LIBRARY);
    CHECK(std::count_if(libraries.begin(), libraries.end(),
                        [](const std::string& l) { return l.find("libyaml-cpp.so") == 0; }) == 1);
}

TEST_CASE("the famspec command links the core statically and needs none of its dependencies at start-up") {
    const std::vector<std::string> libraries = needed(famspec::test::cli_path());
    CHECK_FALSE(libraries.empty());
    for (const std::string& library : libraries) {
        INFO(library);
        for (const char* dependency : {"famspec", "yaml", "boost", "nettle", "libelf", "libz"})
            CHECK(library.find(dependency) == std::string::npos);
    }
}

TEST_CASE("a family whose names are computed at compile time loads and answers") {
    famspec::LoadOptions options;
    options.directories = {famspec::test::fixture_dir("hand_written")};
    options.files = {famspec::test::shipped_components()};  // the RMSNorm its factories construct
    const auto registry = famspec::load_plugins(options);
    REQUIRE(registry->plugins().size() == 2);
    const auto& record = registry->plugins()[0];
    INFO((record.error ? record.error->message : std::string("ok")));
    REQUIRE(record.ok());
    CHECK(record.manifest->factories ==
          std::vector<std::string>{"hyper_parallel.models.hand_written.adapter.replacements.replace_offsetrmsnorm",
                                   "hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm"});

    const auto* family = registry->find_family("HandWrittenForCausalLM");
    REQUIRE(family != nullptr);
    CHECK((*family)->model_type() == "hand_written");
    CHECK(registry->find_family("hand-written") == family);

    const auto* factory =
        registry->find_factory("hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm");
    REQUIRE(factory != nullptr);
    REQUIRE((*factory)->construction() != nullptr);
    CHECK((*factory)->construction()->component == "RMSNorm");
    CHECK((*factory)->construction()->arguments.size() == 1);
    CHECK(factory->plugin == "hand_written");
    // A plugin that is data has no code, so it needs no library at all, famspec's least.
    CHECK(needed_of_its_own(record.path).empty());
}
