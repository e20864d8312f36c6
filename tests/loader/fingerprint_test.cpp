// The fingerprint of a plugin's tables: what the data depends on (the ABI, the table format, the word
// size and the byte order) and the compiler, which is only recorded. The standard library, its ABI
// switches and the sanitizers change nothing a plugin hands over, so plugins built with any of them
// load and read as the others do.
#include "famspec/fingerprint.hpp"

#include <doctest/doctest.h>

#include <string>

#include "famspec/famspec.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/sdk/abi.hpp"
#include "process.hpp"

using famspec::test::fixture_dir;

#if defined(__clang__)
constexpr const char* kCompilerPrefix = "clang-";
#else
constexpr const char* kCompilerPrefix = "gcc-";
#endif

TEST_CASE("the core's fingerprint names the ABI, the table format, the word size, the byte order and the compiler") {
    const std::string core(famspec::core_fingerprint());
    CHECK(core.rfind("abi=" + std::to_string(famspec::kAbiMajor) + "." + std::to_string(famspec::kAbiMinor) +
                         ";format=2;word-bits=64;byte-order=little;compiler=",
                     0) == 0);
    CHECK(famspec::fingerprint_field(core, "word-bits") == "64");
    CHECK(famspec::fingerprint_field(core, "compiler").rfind(kCompilerPrefix, 0) == 0);
    CHECK(famspec::fingerprint_field(core, "no-such-field").empty());
}

TEST_CASE("build_fingerprint writes every field in order") {
    CHECK(famspec::build_fingerprint(5, 0, 2, 64, false, "gcc-12.2.0") ==
          "abi=5.0;format=2;word-bits=64;byte-order=little;compiler=gcc-12.2.0");
    CHECK(famspec::build_fingerprint(7, 3, 9, 32, true, "") ==
          "abi=7.3;format=9;word-bits=32;byte-order=big;compiler=");
}

TEST_CASE(
    "plugins built with another C++ ABI switch, debug containers or a sanitizer load, with the same fingerprint") {
    const std::string core(famspec::core_fingerprint());
    for (const char* fixture : {"old_cxx11_abi", "debug_containers", "sanitized"}) {
        CAPTURE(fixture);
        famspec::LoadOptions options;
        options.directories = {fixture_dir(fixture)};
        options.files = {famspec::test::shipped_components()};
        const auto registry = famspec::load_plugins(options);
        REQUIRE(registry->plugins().size() == 2);
        const famspec::PluginRecord& record = registry->plugins()[0];
        REQUIRE_MESSAGE(record.ok(), (record.error ? record.error->message : std::string()));
        REQUIRE(record.manifest);
        CHECK(record.notes.empty());
        // The data's fields equal the core's; only the compiler, which is recorded, may differ.
        for (const char* field : {"abi", "format", "word-bits", "byte-order"}) {
            CHECK(famspec::fingerprint_field(record.manifest->fingerprint, field) ==
                  famspec::fingerprint_field(core, field));
        }
        CHECK(registry->find_factory(std::string("hyper_parallel.models.") + fixture +
                                     ".adapter.replacements.replace_norm") != nullptr);
    }
}
