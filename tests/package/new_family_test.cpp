// famspec new-family, without building: what it writes, and when it refuses.
#include "new_family.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using famspec::cli::new_family;
using famspec::cli::NewFamilyOptions;

namespace {

struct Scratch {
    Scratch() {
        std::string pattern = (fs::temp_directory_path() / "famspec new-family.XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        root = pattern;
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    fs::path root;
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Run {
    int code;
    std::string out;
    std::string err;
};

Run run(const NewFamilyOptions& options) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = new_family(options, out, err);
    return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("new-family writes a project with the family's names in it") {
    Scratch scratch;
    const fs::path dir = scratch.root / "acme lm";
    const Run result = run({"acme_lm", "AcmeLmForCausalLM", dir.string()});
    INFO(result.err);
    REQUIRE(result.code == 0);
    CHECK(result.err.empty());
    CHECK(result.out.find("wrote family 'acme_lm' (AcmeLmForCausalLM) to " + dir.string()) != std::string::npos);
    CHECK(result.out.find("famspec list --plugin-path " + (dir / "build" / "plugins").string()) != std::string::npos);

    const std::string cmake = read(dir / "CMakeLists.txt");
    CHECK(cmake.find("find_package(famspec 0.1 CONFIG REQUIRED)") != std::string::npos);
    CHECK(cmake.find("famspec_add_plugin(acme_lm\n") != std::string::npos);
    CHECK(cmake.find("@") == std::string::npos);
    const std::string plugin = read(dir / "plugin.cpp");
    CHECK(plugin.find("FAMSPEC_PLUGIN(\"acme_lm\", \"0.1.0\", \"AcmeLm family\")") != std::string::npos);
    CHECK(plugin.find("Family family{\"acme_lm\", \"AcmeLmForCausalLM\"};") != std::string::npos);
    CHECK(plugin.find("adapter + \"replacements.replace_acme_lm_rms_norm\"") != std::string::npos);
    CHECK(plugin.find(".wraps(\"AcmeLmRMSNorm\", components)") != std::string::npos);
    CHECK(plugin.find("@") == std::string::npos);
    const std::string readme = read(dir / "README.md");
    CHECK(readme.find("# acme_lm: a famspec family plugin") != std::string::npos);
    CHECK(readme.find("@") == std::string::npos);
}

TEST_CASE("new-family defaults to ./NAME and accepts an existing empty directory") {
    Scratch scratch;
    const fs::path before = fs::current_path();
    fs::current_path(scratch.root);
    const Run defaulted = run({"tiny", "TinyForCausalLM", ""});
    fs::current_path(before);
    REQUIRE(defaulted.code == 0);
    CHECK(fs::is_regular_file(scratch.root / "tiny" / "plugin.cpp"));

    fs::create_directory(scratch.root / "empty");
    const Run into_empty = run({"tiny", "TinyForCausalLM", (scratch.root / "empty").string()});
    CHECK(into_empty.code == 0);
    CHECK(fs::is_regular_file(scratch.root / "empty" / "CMakeLists.txt"));
}

TEST_CASE("new-family refuses a directory that is not empty, and one it cannot create") {
    Scratch scratch;
    const fs::path dir = scratch.root / "taken";
    fs::create_directory(dir);
    std::ofstream(dir / "keep.txt") << "mine\n";
    const Run taken = run({"acme", "AcmeForCausalLM", dir.string()});
    CHECK(taken.code == 1);
    CHECK(taken.err ==
          "famspec new-family: " + dir.string() + " exists and is not empty; choose another --dir or remove it\n");
    CHECK(read(dir / "keep.txt") == "mine\n");
    CHECK_FALSE(fs::exists(dir / "plugin.cpp"));

    // A path below a regular file cannot be created, whoever runs the test.
    const Run below_file = run({"acme", "AcmeForCausalLM", (dir / "keep.txt" / "sub").string()});
    CHECK(below_file.code == 1);
    CHECK(below_file.err.starts_with("famspec new-family: cannot create " + (dir / "keep.txt" / "sub").string()));

    const Run is_file = run({"acme", "AcmeForCausalLM", (dir / "keep.txt").string()});
    CHECK(is_file.code == 1);
    CHECK(is_file.err.find("exists and is not a directory") != std::string::npos);
}

TEST_CASE("new-family rejects invalid names and architectures before writing anything") {
    Scratch scratch;
    const fs::path dir = scratch.root / "out";
    for (const char* name : {"", "Acme", "9lives", "acme-moe", "acme moe", "acme_", "class", "test", "acme.moe"}) {
        CAPTURE(name);
        const Run result = run({name, "AcmeForCausalLM", dir.string()});
        CHECK(result.code == 2);
        CHECK(result.err.starts_with(std::string("famspec new-family: invalid family name '") + name + "'"));
    }
    for (const char* architecture : {"", "1Acme", "Acme-LM", "Acme LM", "acme.LM"}) {
        CAPTURE(architecture);
        const Run result = run({"acme", architecture, dir.string()});
        CHECK(result.code == 2);
        CHECK(result.err.starts_with(std::string("famspec new-family: invalid architecture '") + architecture + "'"));
    }
    CHECK_FALSE(fs::exists(dir));
}
