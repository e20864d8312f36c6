// The manifest generator refuses, at build time, a manifest the loader would refuse: the build fails
// with the size and the remedy, instead of every job refusing the plugin later.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "famspec/elf_file.hpp"
#include "famspec/plugin_manifest.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::test::run_process;

namespace {

// famspec-manifest generate on a fixture plugin.
famspec::test::ProcessResult generate(const fs::path& out, const std::string& fixture) {
    return run_process({famspec::test::build_dir() + "/bin/famspec-manifest", "generate",
                        famspec::test::fixture_file(fixture).string(), "-o", out.string()});
}

}  // namespace

TEST_CASE("famspec-manifest refuses a manifest over the loader's limit, and writes nothing") {
    const famspec::test::TempDir dir;
    // 1500 factories whose targets grow by one character each: a manifest of about 1.2 MB.
    const auto result = generate(dir / "manifest.json", "over_manifest_limit");
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    const std::string plugin = famspec::test::fixture_file("over_manifest_limit").string();
    CHECK(result.err.rfind("famspec-manifest: " + plugin + ": its manifest is ", 0) == 0);
    CHECK(result.err.find(" bytes, over the loader's limit of 1048576 bytes (factories: 1500, families: 1, "
                          "components: 0, CP wrappers: 0, archetypes: 0); famspec would refuse the plugin: split "
                          "its declarations into several plugins\n") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "manifest.json"));
}

TEST_CASE("famspec-manifest writes a manifest within the limit, and the loader reads it back") {
    const famspec::test::TempDir dir;
    const auto result = generate(dir / "manifest.json", "many_declarations");
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(result.err.empty());
    std::ifstream in(dir / "manifest.json", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str().size() > 1000 * 60);
    CHECK(text.str().size() <= famspec::kMaxManifestBytes);
    const auto parsed = famspec::parse_manifest(text.str());
    REQUIRE(parsed.has_value());
    CHECK(parsed->factories.size() == 1000);
    CHECK(parsed->factories.front() == "hyper_parallel.models.many.adapter.replacements.replace_norm_0");
}
