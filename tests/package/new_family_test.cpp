// famspec new-family, without building: what it writes, and when it refuses.
#include "new_family.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
    // A plugin is data (ABI 4.0): one family, its example factory and the component it constructs.
    CHECK(plugin.find("#include \"famspec/sdk/tables.hpp\"\n\nFAMSPEC_PLUGIN(\n"
                      "    \"acme_lm\", \"0.1.0\", \"AcmeLm family\",\n    Plugin{\n") != std::string::npos);
    CHECK(plugin.find(".families = {{.model_type = \"acme_lm\",\n"
                      "                      .architecture = \"AcmeLmForCausalLM\",\n") != std::string::npos);
    CHECK(plugin.find(".providers = {\"hyper_parallel.models.acme_lm.adapter.replacements\"},") != std::string::npos);
    CHECK(plugin.find(".factories = {{.target = \"replace_acme_lm_rms_norm\",") != std::string::npos);
    CHECK(plugin.find(".constructs = wraps(\"AcmeLmRMSNorm\", \"acme_lm_components.modules\"),") != std::string::npos);
    CHECK(plugin.find(".components = {{.package = \"acme_lm_components.modules\",") != std::string::npos);
    CHECK(plugin.ends_with("                                        .where = FAMSPEC_HERE}}}},\n    });\n"));
    // No amendments: those follow a region sync generates, and this project is its author's throughout.
    CHECK(plugin.find(".amendments") == std::string::npos);
    CHECK(plugin.find("@") == std::string::npos);
    // sync's generated regions and their clang-format fence are left out: the project is its author's.
    for (const std::string& text : {cmake, plugin}) {
        CHECK(text.find("famspec sync") == std::string::npos);
        CHECK(text.find("clang-format") == std::string::npos);
        CHECK(text.find("\n\n\n") == std::string::npos);
    }
    const std::string readme = read(dir / "README.md");
    CHECK(readme.find("# acme_lm: a famspec family plugin") != std::string::npos);
    CHECK(readme.find("@") == std::string::npos);
}

// Every entry of a directory, sorted: what a failed run must leave unchanged.
std::vector<std::string> entries(const fs::path& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST_CASE("new-family defaults to ./NAME") {
    Scratch scratch;
    const fs::path before = fs::current_path();
    fs::current_path(scratch.root);
    const Run defaulted = run({"tiny", "TinyForCausalLM", ""});
    fs::current_path(before);
    REQUIRE(defaulted.code == 0);
    CHECK(fs::is_regular_file(scratch.root / "tiny" / "plugin.cpp"));
    CHECK(entries(scratch.root) == std::vector<std::string>{"tiny"});
    CHECK(entries(scratch.root / "tiny") == std::vector<std::string>{"CMakeLists.txt", "README.md", "plugin.cpp"});
    // Created like mkdir would, not with mkdtemp's 0700.
    const auto permissions = fs::status(scratch.root / "tiny").permissions();
    CHECK((permissions & fs::perms::owner_all) == fs::perms::owner_all);
    CHECK((permissions & fs::perms::others_read) != fs::perms::none);
}

TEST_CASE("new-family creates its directory exclusively and leaves nothing behind when it cannot") {
    Scratch scratch;
    const fs::path dir = scratch.root / "taken";
    fs::create_directory(dir);
    std::ofstream(dir / "keep.txt") << "mine\n";
    fs::create_directory(scratch.root / "empty");
    const auto before = entries(scratch.root);

    const Run taken = run({"acme", "AcmeForCausalLM", dir.string()});
    CHECK(taken.code == 1);
    CHECK(taken.out.empty());
    CHECK(taken.err == "famspec new-family: " + dir.string() + " already exists; choose another --dir or remove it\n");
    CHECK(read(dir / "keep.txt") == "mine\n");
    CHECK(entries(dir) == std::vector<std::string>{"keep.txt"});

    // Even an empty directory is someone else's: nothing is written into it.
    const Run empty = run({"acme", "AcmeForCausalLM", (scratch.root / "empty").string()});
    CHECK(empty.code == 1);
    CHECK(empty.err == "famspec new-family: " + (scratch.root / "empty").string() +
                           " already exists; choose another --dir or remove it\n");
    CHECK(fs::is_empty(scratch.root / "empty"));

    // A path below a regular file cannot be created, whoever runs the test.
    const Run below_file = run({"acme", "AcmeForCausalLM", (dir / "keep.txt" / "sub").string()});
    CHECK(below_file.code == 1);
    CHECK(below_file.err ==
          "famspec new-family: cannot create " + (dir / "keep.txt" / "sub").string() + ": Not a directory\n");

    const Run is_file = run({"acme", "AcmeForCausalLM", (dir / "keep.txt").string()});
    CHECK(is_file.code == 1);
    CHECK(is_file.err == "famspec new-family: " + (dir / "keep.txt").string() +
                             " already exists; choose another --dir or remove it\n");

    // No staging directory is left next to the target, whatever failed.
    CHECK(entries(scratch.root) == before);
    CHECK(entries(dir) == std::vector<std::string>{"keep.txt"});
}

TEST_CASE("new-family's README runs the same resolve command as the generated test") {
    Scratch scratch;
    const fs::path dir = scratch.root / "acme";
    REQUIRE(run({"acme_moe", "AcmeMoeForCausalLM", dir.string()}).code == 0);
    const std::string target = "hyper_parallel.models.acme_moe.adapter.replacements.replace_acme_moe_rms_norm";
    const std::string module_type = "transformers.models.acme_moe.modeling_acme_moe.AcmeMoeRMSNorm";
    CHECK(read(dir / "README.md")
              .find("famspec resolve --target " + target + " \\\n    --module-type " + module_type +
                    " --plugin-path \"$PWD/build/plugins\"\n") != std::string::npos);
    CHECK(read(dir / "CMakeLists.txt")
              .find("    add_test(NAME resolve_acme_moe_rms_norm\n        COMMAND famspec::famspec resolve --target " +
                    target + "\n            --module-type " + module_type +
                    " --plugin-path ${CMAKE_BINARY_DIR}/plugins)\n") != std::string::npos);
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
