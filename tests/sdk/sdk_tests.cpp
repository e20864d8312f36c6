// The SDK's promises: it is header-only (a plugin needs no famspec library), a plugin exports only its
// block of tables, which lies in a read-only section of its own that the core reads from the file, and
// a family computed at compile time loads like a written one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/table_layout.hpp"
#include "process.hpp"

namespace fs = std::filesystem;

// A sanitized build compiles everything, plugins included, with the sanitizer (FAMSPEC_SANITIZE).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
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

// A symbol the library defines and exports (not UND), from `readelf --dyn-syms`.
struct Symbol {
    std::string type;     // OBJECT, FUNC, ...
    std::string section;  // the index of the section that holds it
    std::uint64_t size = 0;
};
std::map<std::string, Symbol> exported(const fs::path& library) {
    const auto result = run_process({FAMSPEC_TEST_READELF, "--dyn-syms", "-W", library.string()});
    REQUIRE(result.exit_code == 0);
    std::map<std::string, Symbol> out;
    for (const std::string& line : lines_of(result.out)) {
        std::istringstream fields(line);
        std::string num, value, size, type, bind, visibility, ndx, name;
        if (!(fields >> num >> value >> size >> type >> bind >> visibility >> ndx >> name)) continue;
        if (num.back() != ':' || ndx == "UND" || (bind != "GLOBAL" && bind != "WEAK")) continue;
        out[name.substr(0, name.find('@'))] = Symbol{type, ndx, std::stoull(size, nullptr, 0)};
    }
    return out;
}

// A section of the file, from `readelf -S`: its index, type, size and flags (W write, A alloc, X exec).
struct SectionHeader {
    std::string index;
    std::string type;
    std::uint64_t size = 0;
    std::string flags;
};
std::map<std::string, SectionHeader> sections(const fs::path& library) {
    const auto result = run_process({FAMSPEC_TEST_READELF, "-S", "-W", library.string()});
    REQUIRE(result.exit_code == 0);
    std::map<std::string, SectionHeader> out;
    for (const std::string& line : lines_of(result.out)) {
        // "  [12] .famspec_tables PROGBITS 0000000000002000 002000 000a58 00   A  0   0  8"; the flags
        // column is empty for a section without flags.
        const std::size_t open = line.find('[');
        const std::size_t close = line.find(']', open);
        if (open == std::string::npos || close == std::string::npos) continue;
        std::vector<std::string> fields;
        std::istringstream rest(line.substr(close + 1));
        for (std::string field; rest >> field;) fields.push_back(field);
        if (fields.size() != 9 && fields.size() != 10) continue;
        std::string index = line.substr(open + 1, close - open - 1);
        index.erase(0, index.find_first_not_of(' '));
        if (index.empty() || !std::isdigit(static_cast<unsigned char>(index[0]))) continue;  // the title
        out[fields[0]] = SectionHeader{index, fields[1], std::stoull(fields[4], nullptr, 16),
                                       fields.size() == 10 ? fields[6] : std::string()};
    }
    return out;
}

// What a library needs beyond a sanitizer's runtime: a sanitized build links the runtime (and what
// it needs) into every library, code or none.
std::vector<std::string> needed_of_its_own(const fs::path& library) {
    std::vector<std::string> own = needed(library);
    if (!kSanitized) return own;
    std::erase_if(own, [](const std::string& name) {
        for (const char* runtime :
             {"libasan.", "libubsan.", "libtsan.", "libclang_rt.", "libstdc++.", "libm.", "libgcc_s.", "libc."}) {
            if (name.starts_with(runtime)) return true;
        }
        return false;
    });
    return own;
}

}  // namespace

TEST_CASE("a shipped plugin needs no famspec library and exports only its tables, in their read-only section") {
    for (const fs::path& plugin : shipped_plugins()) {
        INFO(plugin.string());
        // The parse sees the entries where there are some (a test below); a plugin of tables has none.
        for (const std::string& library : needed(plugin)) CHECK(library.find("famspec") == std::string::npos);
        const std::map<std::string, Symbol> symbols = exported(plugin);
        REQUIRE(symbols.size() == 1);
        REQUIRE(symbols.begin()->first == famspec::kEntrySymbol);
        const Symbol& tables = symbols.begin()->second;
        CHECK(tables.type == "OBJECT");

        // The section the core reads: allocated, neither writable nor executable, and all of it the block.
        const std::map<std::string, SectionHeader> headers = sections(plugin);
        const auto section = headers.find(famspec::kTableSection);
        REQUIRE(section != headers.end());
        CHECK(section->second.type == "PROGBITS");
        CHECK(section->second.flags.find('A') != std::string::npos);
        CHECK(section->second.flags.find('W') == std::string::npos);
        CHECK(section->second.flags.find('X') == std::string::npos);
        CHECK(tables.section == section->second.index);
        CHECK(tables.size == section->second.size);
        CHECK(tables.size > sizeof(famspec::tables::TableHeader));
        // What ABI 4 plugins carried is gone.
        CHECK(headers.count(famspec::kLegacyManifestSection) == 0);
    }
    // The component catalogue is tables: constant data and no code, so it needs no library at all.
    CHECK(needed_of_its_own(fs::path(famspec::test::plugin_dir()) / "famspec_components.so").empty());
}

TEST_CASE("the section parse sees the flags of a writable and an executable section") {
    // The core library has both: were the parse wrong, the checks above would prove nothing.
    const std::map<std::string, SectionHeader> headers = sections(FAMSPEC_TEST_CORE_LIBRARY);
    REQUIRE(headers.count(".text") == 1);
    REQUIRE(headers.count(".data") == 1);
    CHECK(headers.at(".text").flags == "AX");
    CHECK(headers.at(".data").flags == "WA");
    CHECK(headers.at(".text").type == "PROGBITS");
    CHECK(headers.at(".text").size > 0);
    // And the symbol parse sees the library's many exports, each in a section of its own index.
    const std::map<std::string, Symbol> symbols = exported(FAMSPEC_TEST_CORE_LIBRARY);
    REQUIRE(symbols.count("famspec_plugin_tables") == 0);
    const auto load = std::find_if(symbols.begin(), symbols.end(), [](const auto& symbol) {
        return symbol.first.find("load_plugins") != std::string::npos;
    });
    REQUIRE(load != symbols.end());
    CHECK(load->second.type == "FUNC");
    CHECK(load->second.section == headers.at(".text").index);
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
    CHECK(record.manifest->name == "hand_written");
    CHECK(record.manifest->description == "famspec test fixture: names computed at compile time");
    CHECK(record.manifest->families ==
          std::vector<famspec::ManifestFamily>{{"hand_written", "HandWrittenForCausalLM", {"hand-written"}, {}}});
    CHECK(record.manifest->factories ==
          std::vector<std::string>{"hyper_parallel.models.hand_written.adapter.replacements.replace_offsetrmsnorm",
                                   "hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm"});

    const auto* family = registry->find_family("HandWrittenForCausalLM");
    REQUIRE(family != nullptr);
    CHECK((*family)->model_type == "hand_written");
    CHECK(registry->find_family("hand-written") == family);

    const auto* factory =
        registry->find_factory("hyper_parallel.models.hand_written.adapter.replacements.replace_rmsnorm");
    REQUIRE(factory != nullptr);
    REQUIRE((*factory)->construction.has_value());
    CHECK((*factory)->construction->component == "RMSNorm");
    CHECK((*factory)->construction->arguments.size() == 1);
    CHECK(factory->plugin == "hand_written");
    // A plugin that is data has no code, so it needs no library at all, famspec's least.
    CHECK(needed_of_its_own(record.path).empty());
}
