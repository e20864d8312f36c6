// The build fingerprint: which differences refuse a plugin (the standard library, its ABI switches,
// the sanitizers, famspec's major), which only note it (the compiler, libstdc++'s assertions), and
// the standard library's floor, decided by the libstdc++ this process loaded.
#include "famspec/fingerprint.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/loaded_stdlib.hpp"
#include "famspec/famspec.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/sdk/abi.hpp"
#include "process.hpp"

namespace fs = std::filesystem;
using famspec::fingerprint_differences;
using famspec::fingerprint_notes;
using famspec::PluginRecord;
using famspec::test::fixture_dir;

namespace {

const std::string kCore =
    "stdlib=libstdc++;stdlib-release=12;cxx11-abi=1;debug-containers=0;asan=none;tsan=none;famspec=0;"
    "compiler=gcc-12.2.0;assertions=0";

// kCore with one field's value replaced (or the field removed, when value is empty).
std::string with(const std::string& key, const std::string& value) {
    const std::size_t start = kCore.find(key + "=");
    REQUIRE(start != std::string::npos);
    const std::size_t end = kCore.find(';', start);
    const std::string rest = end == std::string::npos ? "" : kCore.substr(end);
    if (value.empty()) return kCore.substr(0, start == 0 ? 0 : start - 1) + (start == 0 ? rest.substr(1) : rest);
    return kCore.substr(0, start) + key + "=" + value + rest;
}

// The fixture's record from a full load and from inspection. The shipped plugins are searched too,
// for the components a family wraps; only the fixture's own record is returned.
std::vector<PluginRecord> both_ways(const std::string& fixture) {
    famspec::LoadOptions options;
    options.directories = {fixture_dir(fixture), famspec::test::plugin_dir()};
    const auto registry = famspec::load_plugins(options);
    std::vector<PluginRecord> records;
    const auto own = [&](const PluginRecord& record) {
        return fs::path(record.path).parent_path() == fixture_dir(fixture);
    };
    for (const PluginRecord& loaded : registry->plugins()) {
        if (own(loaded)) records.push_back(loaded);
    }
    for (PluginRecord& inspected : famspec::inspect_plugins(options)) {
        if (own(inspected)) records.push_back(std::move(inspected));
    }
    REQUIRE(records.size() == 2);
    return records;
}

std::string stage_of(const PluginRecord& record) {
    return record.error ? std::string(famspec::name_of(record.error->stage)) : "ok";
}

const std::string kCoreRelease = famspec::fingerprint_field(famspec::core_fingerprint(), "stdlib-release");
const std::string kCoreCompiler = famspec::fingerprint_field(famspec::core_fingerprint(), "compiler");

}  // namespace

TEST_CASE("the core's fingerprint names its standard library, its release and its compiler") {
    CHECK(famspec::fingerprint_field(famspec::core_fingerprint(), "stdlib") == "libstdc++");
    CHECK(kCoreRelease == std::to_string(_GLIBCXX_RELEASE));
    CHECK(kCoreCompiler == std::string("gcc-") + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                               std::to_string(__GNUC_PATCHLEVEL__));
    CHECK(famspec::fingerprint_field(famspec::core_fingerprint(), "no-such-field").empty());
}

TEST_CASE("a fingerprint that differs in the compiler or the assertions only is noted, not refused") {
    CHECK(fingerprint_differences(kCore, kCore).empty());
    CHECK(fingerprint_notes(kCore, kCore).empty());
    const std::string clang = with("compiler", "clang-14.0.6");
    CHECK(fingerprint_differences(clang, kCore).empty());
    CHECK(fingerprint_notes(clang, kCore) ==
          std::vector<std::string>{"compiler [CMAKE_CXX_COMPILER]: plugin clang-14.0.6, core gcc-12.2.0"});
    CHECK(fingerprint_notes(with("assertions", "1"), kCore) ==
          std::vector<std::string>{"assertions [_GLIBCXX_ASSERTIONS]: plugin 1, core 0"});
    // A plugin that does not record its compiler has nothing to note.
    CHECK(fingerprint_notes(with("compiler", ""), kCore).empty());
    CHECK(fingerprint_differences(with("compiler", ""), kCore).empty());
}

TEST_CASE("a fingerprint that differs where the layout does is refused, naming the switch") {
    CHECK(fingerprint_differences(with("cxx11-abi", "0"), kCore) ==
          std::vector<std::string>{"cxx11-abi [_GLIBCXX_USE_CXX11_ABI]: plugin 0, core 1"});
    CHECK(fingerprint_differences(with("debug-containers", "1"), kCore) ==
          std::vector<std::string>{"debug-containers [_GLIBCXX_DEBUG]: plugin 1, core 0"});
    CHECK(fingerprint_differences(with("asan", "address"), kCore) ==
          std::vector<std::string>{"asan [-fsanitize=address]: plugin address, core none"});
    CHECK(fingerprint_differences(with("tsan", "thread"), kCore) ==
          std::vector<std::string>{"tsan [-fsanitize=thread]: plugin thread, core none"});
    CHECK(fingerprint_differences(with("famspec", "1"), kCore) ==
          std::vector<std::string>{"famspec [famspec's major version]: plugin 1, core 0"});
    // libc++ is another library, whatever its release.
    CHECK(fingerprint_differences(with("stdlib", "libc++"), kCore) ==
          std::vector<std::string>{"stdlib [the C++ standard library]: plugin libc++, core libstdc++"});
    // A field the plugin lacks, or one this core does not know, cannot be judged.
    CHECK(fingerprint_differences(with("cxx11-abi", ""), kCore) ==
          std::vector<std::string>{"cxx11-abi [_GLIBCXX_USE_CXX11_ABI]: plugin (missing), core 1"});
    CHECK(fingerprint_differences(kCore + ";pointer-auth=1", kCore) ==
          std::vector<std::string>{"pointer-auth: plugin 1, core (unknown field)"});
    // The fingerprint of famspec 0.1 (compiler compared by name) lacks the standard library's fields.
    CHECK(fingerprint_differences(
              "compiler=gcc-12;cxx11-abi=1;debug-containers=0;assertions=0;asan=none;tsan=none;famspec=0", kCore) ==
          std::vector<std::string>{"stdlib [the C++ standard library]: plugin (missing), core libstdc++",
                                   "stdlib-release [the standard library's headers]: plugin (missing), core 12"});
}

TEST_CASE("a plugin's libstdc++ may be older than the core's, or newer when this process loaded one as new") {
    CHECK(fingerprint_differences(with("stdlib-release", "5"), kCore).empty());
    CHECK(fingerprint_differences(with("stdlib-release", "11"), kCore).empty());
    // Newer than the core's headers: accepted when the libstdc++ this process loaded defines that
    // release's first symbol version. A core built against release 5 runs here on the release this
    // test was built against.
    CHECK(fingerprint_differences(with("stdlib-release", kCoreRelease), with("stdlib-release", "5")).empty());
    const auto refused = fingerprint_differences(with("stdlib-release", "99"), kCore);
    REQUIRE(refused.size() == 1);
    CHECK(
        refused[0].starts_with("stdlib-release [the standard library's headers]: plugin 99, core 12, and the "
                               "libstdc++ loaded here ("));
    CHECK(refused[0].find("libstdc++.so.6) lacks GLIBCXX_3.4.118: build the plugin with GCC 12's headers, or run "
                          "famspec with a libstdc++ at least as new as the plugin's") != std::string::npos);
    CHECK(fingerprint_differences(with("stdlib-release", "twelve"), kCore) ==
          std::vector<std::string>{"stdlib-release [the standard library's headers]: plugin twelve, core 12"});
}

TEST_CASE("the first symbol version of each libstdc++ release, and the one this process loaded") {
    using famspec::detail::libstdcxx_first_version;
    CHECK(libstdcxx_first_version(11) == "GLIBCXX_3.4.29");
    CHECK(libstdcxx_first_version(12) == "GLIBCXX_3.4.30");
    CHECK(libstdcxx_first_version(13) == "GLIBCXX_3.4.31");
    CHECK(libstdcxx_first_version(14) == "GLIBCXX_3.4.33");
    CHECK(libstdcxx_first_version(15) == "GLIBCXX_3.4.34");
    // Past the table: at least one version per release.
    CHECK(libstdcxx_first_version(16) == "GLIBCXX_3.4.35");
    CHECK(libstdcxx_first_version(99) == "GLIBCXX_3.4.118");
    const auto loaded = famspec::detail::loaded_libstdcxx(_GLIBCXX_RELEASE);
    CHECK(loaded.provides);
    CHECK(fs::path(loaded.path).filename() == "libstdc++.so.6");
    CHECK_FALSE(famspec::detail::loaded_libstdcxx(99).provides);
}

TEST_CASE("another famspec major in the fingerprint fails at the compatibility stage and names the field") {
    for (const PluginRecord& record : both_ways("fingerprint_mismatch")) {
        REQUIRE(stage_of(record) == "compatibility");
        const std::string& message = record.error->message;
        CHECK(message.find("has a different build fingerprint (") != std::string::npos);
        CHECK(message.find("famspec [famspec's major version]: plugin 99, core 0") != std::string::npos);
        // Only the fields that differ are named, and the compiler is never a reason.
        CHECK(message.find("cxx11-abi [") == std::string::npos);
        CHECK(message.find("compiler [") == std::string::npos);
        CHECK(message.find("with the same standard library and ABI flags (any compiler for them)") !=
              std::string::npos);
    }
}

TEST_CASE("a plugin built with debug containers is refused, naming _GLIBCXX_DEBUG") {
    for (const PluginRecord& record : both_ways("debug_containers")) {
        REQUIRE(stage_of(record) == "compatibility");
        CHECK(record.error->message.find("has a different build fingerprint (debug-containers [_GLIBCXX_DEBUG]: "
                                         "plugin 1, core 0)") != std::string::npos);
        CHECK(record.error->found.find("debug-containers=1") != std::string::npos);
        CHECK(record.error->expected.find("debug-containers=0") != std::string::npos);
    }
}

TEST_CASE("a plugin built against a newer libstdc++ than the one loaded is refused before it is opened") {
    for (const PluginRecord& record : both_ways("newer_stdlib")) {
        REQUIRE(stage_of(record) == "compatibility");
        CHECK(record.error->message.find("stdlib-release [the standard library's headers]: plugin 99, core " +
                                         kCoreRelease + ", and the libstdc++ loaded here (") != std::string::npos);
        CHECK(record.error->message.find(") lacks GLIBCXX_3.4.118") != std::string::npos);
    }
}

TEST_CASE("a plugin built by another compiler against an older libstdc++ loads, with a note for each difference") {
    const std::string prefix =
        "plugin 'built_elsewhere' was built differently from this famspec, which does not change the ABI (";
    std::vector<std::string> expected{prefix + "compiler [CMAKE_CXX_COMPILER]: plugin clang-99.0.0, core " +
                                      kCoreCompiler + ")"};
    if (famspec::fingerprint_field(famspec::core_fingerprint(), "assertions") != "1")
        expected.push_back(prefix + "assertions [_GLIBCXX_ASSERTIONS]: plugin 1, core 0)");
    for (const PluginRecord& record : both_ways("built_elsewhere")) {
        INFO(record.path);
        REQUIRE(stage_of(record) == "ok");
        CHECK(record.notes == expected);
    }
    famspec::LoadOptions options;
    options.directories = {fixture_dir("built_elsewhere"), famspec::test::plugin_dir()};
    std::vector<std::string> logged;
    options.log = [&](famspec::LogLevel level, std::string_view text) {
        if (level == famspec::LogLevel::info) logged.emplace_back(text);
    };
    const auto registry = famspec::load_plugins(options);
    CHECK(registry->find_family("built_elsewhere") != nullptr);
    // The fixture is searched first: its "loaded" line and its notes come first.
    REQUIRE(logged.size() > expected.size());
    CHECK(logged[0] == "loaded plugin " + registry->plugins()[0].path);
    CHECK(logged[1] == registry->plugins()[0].path + ": " + expected[0]);
}
