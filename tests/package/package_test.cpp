// The installed package, end to end: `cmake --install` of this build tree into a scratch prefix
// (with a space in its path), out-of-tree family projects configured against that prefix alone,
// and the *installed* famspec run on what they build.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "famspec/fingerprint.hpp"
#include "process.hpp"

namespace fs = std::filesystem;
using famspec::test::ProcessOptions;
using famspec::test::ProcessResult;
using famspec::test::run_process;

namespace {

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; in >> field;) fields.push_back(field);
    return fields;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Removed at the end; FAMSPEC_KEEP_SCRATCH=1 keeps it for a post-mortem.
class Scratch {
public:
    explicit Scratch(const std::string& tag) {
        std::string pattern = (fs::temp_directory_path() / ("famspec package " + tag + ".XXXXXX")).string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        root_ = pattern;
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    ~Scratch() {
        std::error_code ec;
        if (std::getenv("FAMSPEC_KEEP_SCRATCH") == nullptr) fs::remove_all(root_, ec);
    }
    fs::path operator/(const std::string& name) const { return root_ / name; }

private:
    fs::path root_;
};

// Nothing from the caller's environment may point the nested builds or the CLI elsewhere.
ProcessOptions isolated() {
    ProcessOptions options;
    for (const char* name : {"CMAKE_PREFIX_PATH", "famspec_DIR", "FAMSPEC_PLUGIN_PATH", "LD_LIBRARY_PATH", "MAKEFLAGS",
                             "MFLAGS", "CXXFLAGS", "LDFLAGS", "CMAKE_GENERATOR", "CMAKE_BUILD_PARALLEL_LEVEL"}) {
        options.environment[name] = std::nullopt;
    }
    return options;
}

std::string command_line(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& a : argv) {
        if (!text.empty()) text += ' ';
        text.append("'").append(a).append("'");
    }
    return text;
}

ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& options = isolated()) {
    return run_process(argv, options);
}

ProcessResult must_run(const std::vector<std::string>& argv, const ProcessOptions& options = isolated()) {
    ProcessResult result = run_process(argv, options);
    INFO("command: ", command_line(argv));
    INFO("stdout:\n", result.out);
    INFO("stderr:\n", result.err);
    REQUIRE(result.exit_code == 0);
    return result;
}

// The first line of text that contains part, without its newline.
std::string line_with(const std::string& text, const std::string& part) {
    const std::size_t at = text.find(part);
    if (at == std::string::npos) return {};
    const std::size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    return text.substr(begin, text.find('\n', at) - begin);
}

const std::string kAcme = "hyper_parallel.models.acme_moe.adapter.";
const std::string kAcmeReplacement =
    R"({"imports":[{"module":"acme_components.modules","names":["AcmeNorm"],"raw":null}],)"
    R"("keyword_args":["module_fqn=''","context=None"],"mode":"wrap_source","new_ctor":"AcmeNorm",)"
    R"("old_ctor":"AcmeRMSNorm","remove_class":false,"replacement_note":"AcmeNorm wraps AcmeRMSNorm; the original )"
    R"(class is kept as the wrapper input.","snippets":[]})"
    "\n";

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void install_famspec(const fs::path& prefix) {
    must_run({FAMSPEC_TEST_CMAKE, "--install", famspec::test::build_dir(), "--prefix", prefix.string()});
}

// Configures in a fresh directory, with the installed prefix as the only place to find famspec, and
// builds.
ProcessResult build_family(const fs::path& source, const fs::path& build, const fs::path& prefix,
                           const std::string& extra_flags = "",
                           const std::string& compiler = FAMSPEC_TEST_CXX_COMPILER) {
    // Sanitizer flags are GCC's runtime: a plugin from another compiler is built without them (its
    // tables are read, never run, so either way it loads).
    const std::string base = compiler == FAMSPEC_TEST_CXX_COMPILER ? FAMSPEC_TEST_PLUGIN_FLAGS : "";
    const std::string flags = base + " " + extra_flags;
    must_run({FAMSPEC_TEST_CMAKE, "-S", source.string(), "-B", build.string(), "-G", FAMSPEC_TEST_GENERATOR,
              "-DCMAKE_CXX_COMPILER=" + compiler, "-DCMAKE_BUILD_TYPE=Release",
              "-DCMAKE_PREFIX_PATH=" + prefix.string(), "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF",
              "-DCMAKE_CXX_FLAGS=" + flags, "-DCMAKE_MODULE_LINKER_FLAGS=" + base});
    CHECK(contains(read(build / "CMakeCache.txt"), "famspec_DIR:PATH=" + (prefix / "lib/cmake/famspec").string()));
    return must_run({FAMSPEC_TEST_CMAKE, "--build", build.string(), "-j2"});
}

std::string ctest_path() { return (fs::path(FAMSPEC_TEST_CMAKE).parent_path() / "ctest").string(); }

fs::path copy_plugin(const fs::path& plugin, const fs::path& directory) {
    fs::create_directories(directory);
    fs::copy_file(plugin, directory / plugin.filename(), fs::copy_options::overwrite_existing);
    return directory / plugin.filename();
}

std::vector<std::string> installed_cli(const fs::path& prefix, std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), (prefix / "bin" / "famspec").string());
    return arguments;
}

// A plugin links no famspec library and needs no search path: the SDK is header-only (a plugin of
// tables, which holds no code, needs no library at all). Nor does the famspec command, which links
// the core's archive.
bool stands_alone(const fs::path& plugin) {
    const ProcessResult dynamic = must_run({"readelf", "-d", plugin.string()});
    return contains(dynamic.out, "Dynamic section") && !contains(dynamic.out, "libfamspec") &&
           !contains(dynamic.out, "runpath") && !contains(dynamic.out, "rpath");
}

// The RUNPATH and RPATH entries of each dynamically linked ELF file under root, by file. An empty
// entry is the working directory to the dynamic linker: never wanted.
std::vector<std::pair<fs::path, std::vector<std::string>>> search_paths_under(const fs::path& root) {
    std::vector<std::pair<fs::path, std::vector<std::string>>> found;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        const fs::path& file = entry.path();
        if (!entry.is_regular_file() || file.string().find("/CMakeFiles/") != std::string::npos) continue;
        std::ifstream in(file, std::ios::binary);
        char magic[4] = {};
        if (!in.read(magic, 4) || std::string(magic, 4) !=
                                      "\x7f"
                                      "ELF")
            continue;
        const ProcessResult dynamic = must_run({"readelf", "-d", file.string()});
        if (!contains(dynamic.out, "Dynamic section at offset")) continue;  // object files, archives' members
        std::vector<std::string> entries;
        for (const char* kind : {"runpath: [", "rpath: ["}) {
            const std::size_t at = dynamic.out.find(kind);
            if (at == std::string::npos) continue;
            const std::size_t begin = at + std::string(kind).size();
            std::string list = dynamic.out.substr(begin, dynamic.out.find(']', begin) - begin) + ":";
            for (std::size_t start = 0, colon; (colon = list.find(':', start)) != std::string::npos; start = colon + 1)
                entries.push_back(list.substr(start, colon - start));
        }
        found.emplace_back(file, std::move(entries));
    }
    return found;
}

void check_no_working_directory_search(const fs::path& root) {
    const auto found = search_paths_under(root);
    CHECK(found.size() > 3);  // the walk must see the binaries, or it proves nothing
    for (const auto& [file, entries] : found) {
        CAPTURE(file.string());
        for (const std::string& entry : entries) CHECK_FALSE(entry.empty());
    }
}

}  // namespace

TEST_CASE("no binary of the build tree searches the working directory for libraries") {
    check_no_working_directory_search(famspec::test::build_dir());
}

TEST_CASE("the installed package builds the out-of-tree example and the installed famspec loads it") {
    Scratch scratch("example");
    const fs::path prefix = scratch / "prefix dir";
    install_famspec(prefix);
    install_famspec(prefix);  // installing over an existing tree must work too

    CHECK(fs::is_symlink(prefix / "lib/libfamspec.so"));
    CHECK(fs::is_symlink(prefix / "lib/libfamspec.so.0"));
    CHECK(contains(read(prefix / "include/famspec/sdk/version.hpp"), "#define FAMSPEC_VERSION_MAJOR 0"));
    CHECK(fs::is_regular_file(prefix / "include/famspec/sdk.hpp"));
    CHECK(fs::is_regular_file(prefix / "include/famspec/famspec.hpp"));
    CHECK_FALSE(fs::exists(prefix / "bin/famspec-manifest"));  // a plugin's metadata is its tables
    for (const char* file : {"famspecConfig.cmake", "famspecConfigVersion.cmake", "famspecTargets.cmake",
                             "FamspecPlugin.cmake", "FamspecEmbedAssets.cmake"}) {
        CAPTURE(file);
        CHECK(fs::is_regular_file(prefix / "lib/cmake/famspec" / file));
    }
    CHECK(stands_alone(prefix / "bin/famspec"));  // it links the core's archive
    check_no_working_directory_search(prefix);
    // The installed core exports what its installed public headers declare, and nothing else
    // (core/exports.map): not the tooling, not the standard library's template instances.
    const std::string library = (prefix / "lib/libfamspec.so").string();
    const std::string include = (prefix / "include").string();
    const ProcessResult exports = run({FAMSPEC_TEST_PYTHON, FAMSPEC_TEST_EXPORTS_CHECK, library, include});
    INFO(exports.out);
    CHECK(exports.exit_code == 0);
    CHECK(contains(exports.out, " exported symbols, each declared by the "));
    const std::string exported = must_run({"nm", "-D", "--defined-only", "-C", library}).out;
    CHECK(contains(exported, "famspec::load_plugins("));
    CHECK(contains(exported, "famspec::Resolver::replacement_spec_for("));
    // The check fails on a tooling function, a hidden class's member and a standard library instance.
    const ProcessResult leaked =
        run({FAMSPEC_TEST_PYTHON, FAMSPEC_TEST_EXPORTS_CHECK, library, include,
             "famspec::inspect_plugins(famspec::LoadOptions const&)",
             "famspec::Registry::Index::Index(famspec::Registry::Contents&)", "std::bad_variant_access::what() const"});
    CHECK(leaked.exit_code == 1);
    CHECK(leaked.out ==
          "famspec::inspect_plugins(famspec::LoadOptions const&): no public header declares inspect_plugins with "
          "FAMSPEC_API\n"
          "famspec::Registry::Index::Index(famspec::Registry::Contents&): no public header declares Index\n"
          "std::bad_variant_access::what() const: not in namespace famspec\n");
    CHECK(stands_alone(prefix / "lib/famspec/plugins/famspec_qwen3_moe.so"));

    const fs::path build = scratch / "example build";
    build_family(FAMSPEC_TEST_EXAMPLE_DIR, build, prefix);
    const std::string link = read(build / "CMakeFiles/acme_moe.dir/link.txt");
    CHECK(contains(link, "-Wl,--no-undefined"));
    CHECK(contains(link, "--version-script="));
    CHECK_FALSE(contains(link, "yaml"));  // the core's own dependencies stay inside libfamspec.so
    CHECK_FALSE(contains(link, "boost_json"));
    CHECK_FALSE(contains(link, famspec::test::build_dir()));
    const ProcessResult symbols =
        must_run({"nm", "-D", "--defined-only", (build / "plugins/famspec_acme_moe.so").string()});
    CHECK(symbols.out.find("famspec_plugin_tables") != std::string::npos);
    CHECK(std::count(symbols.out.begin(), symbols.out.end(), '\n') == 1);  // nothing else is exported

    const fs::path plugins = scratch / "plugin dir";
    const fs::path plugin = copy_plugin(build / "plugins/famspec_acme_moe.so", plugins);

    // One build serves every step below; doctest SUBCASEs would rebuild for each.
    {  // --plugin-path
        const ProcessResult list = must_run(installed_cli(prefix, {"list", "--plugin-path", plugins.string()}));
        CHECK(contains(list.err, "plugin search path (--plugin-path): " + plugins.string() + "\n"));
        CHECK(contains(list.out, "acme_moe  1.0.0    5.1  ok      acme_moe  famspec_acme_moe.so\n"));
        CHECK_FALSE(contains(list.out, "qwen3_moe"));

        const ProcessResult json =
            must_run(installed_cli(prefix, {"list", "--json", "--plugin-path", plugins.string()}));
        CHECK(contains(json.out, R"j("description":"Acme-MoE family (out-of-tree example)","families":["acme_moe"])j"));
        CHECK(contains(json.out, R"j("status":"ok")j"));

        const ProcessResult show = must_run(installed_cli(prefix, {"show", "acme", "--plugin-path", plugins.string()}));
        CHECK(show.out.starts_with("family acme_moe\n  architecture:      AcmeMoeForCausalLM\n"));
        CHECK(contains(show.out, "  aliases:           acme\n"));
        CHECK(contains(show.out,
                       "    hyper_parallel.models.acme_moe.adapter.replacements.replace_acme_moe_rms_norm\n"
                       "      -> AcmeNorm(module=module, module_fqn=<module_fqn>, context=<context>) from "
                       "acme_components.modules [wrap_source]\n"));
        CHECK(contains(show.out, "    (softmax_topk, gated, module_list) -> moe_ep_routed AcmeMoeSparseBlock"));
        CHECK(contains(show.out,
                       "local_compute_fn "
                       "hyper_parallel.models.acme_moe.adapter.distributed.expert_parallel.acme_moe_ep_compute_fn"));
        CHECK(contains(show.out,
                       "    hyper_parallel.models.acme_moe.adapter.distributed.context_parallel."
                       "acme_moe_flash_attention_cp_wrapper\n"));
        CHECK(contains(show.out, "  components:\n    acme_components.modules.norm.AcmeNorm\n"));

        const ProcessResult factory = must_run(installed_cli(
            prefix, {"resolve", "--target", kAcme + "replacements.replace_acme_moe_rms_norm", "--module-type",
                     "acme.modeling.AcmeRMSNorm", "--explain", "--plugin-path", plugins.string()}));
        CHECK(factory.out == kAcmeReplacement);
        CHECK(contains(factory.err, "explain: channel: factory\n"));
        CHECK(contains(factory.err, "explain: outcome: resolved\n"));

        const ProcessResult archetype = must_run(
            installed_cli(prefix, {"resolve", "--target", kAcme + "distributed.expert_parallel.acme_moe_ep_compute_fn",
                                   "--slot", "local_compute_fn", "--plugin-path", plugins.string()}));
        CHECK(archetype.out.starts_with(R"({"body_template":")"));
        CHECK(contains(archetype.out, "router_kind='softmax_topk',\\n    shared='additive',"));
        CHECK(contains(archetype.out, R"("kind":"moe_ep_routed","method_name":"forward")"));
        CHECK(contains(archetype.out, R"("target_class":"AcmeMoeSparseBlock")"));

        const ProcessResult wrapper = must_run(installed_cli(
            prefix, {"resolve", "--target", kAcme + "distributed.context_parallel.acme_moe_flash_attention_cp_wrapper",
                     "--slot", "inner_wrapper", "--model-type", "acme", "--plugin-path", plugins.string()}));
        CHECK(contains(wrapper.out, R"("kind":"cp_attention")"));

        const ProcessResult unknown = run(
            installed_cli(prefix, {"resolve", "--target", kAcme + "replacements.replace_acme_moe_nothing",
                                   "--module-type", "acme.modeling.AcmeRMSNorm", "--plugin-path", plugins.string()}));
        CHECK(unknown.exit_code == 1);
        CHECK(unknown.out == "null\n");
    }

    {  // FAMSPEC_PLUGIN_PATH
        ProcessOptions options = isolated();
        options.environment["FAMSPEC_PLUGIN_PATH"] = plugins.string();
        const ProcessResult list = must_run(installed_cli(prefix, {"list"}), options);
        CHECK(contains(list.err, "plugin search path (FAMSPEC_PLUGIN_PATH): " + plugins.string() + "\n"));
        CHECK(contains(list.out, "acme_moe  1.0.0    5.1  ok      acme_moe  famspec_acme_moe.so\n"));
        const ProcessResult show = must_run(installed_cli(prefix, {"show", "AcmeMoeForCausalLM"}), options);
        CHECK(show.out.starts_with("family acme_moe\n"));
        CHECK(contains(show.out, "  plugin:            acme_moe (" + plugin.string() + ")\n"));
        const ProcessResult factory =
            must_run(installed_cli(prefix, {"resolve", "--target", kAcme + "replacements.replace_acme_moe_rms_norm",
                                            "--module-type", "acme.modeling.AcmeRMSNorm"}),
                     options);
        CHECK(factory.out == kAcmeReplacement);
    }

    {  // INSTALL_DESTINATION puts the plugin where the installed famspec looks by default
        must_run({FAMSPEC_TEST_CMAKE, "--install", build.string()});
        const fs::path installed = prefix / "lib/famspec/plugins/famspec_acme_moe.so";
        REQUIRE(fs::is_regular_file(installed));
        CHECK(stands_alone(installed));
        const ProcessResult list = must_run(installed_cli(prefix, {"list", "--long"}));
        CHECK(contains(list.err, "plugin search path (default): " + (prefix / "lib/famspec/plugins").string()));
        // Compare fields, not column widths: the widths follow the longest name installed.
        const std::string acme = line_with(list.out, installed.string());
        CHECK(acme.ends_with(installed.string()));  // the path may hold spaces: it is the last column
        CHECK(fields_of(acme.substr(0, acme.find(installed.string()))) ==
              std::vector<std::string>{"acme_moe", "1.0.0", "5.1", "ok", "acme_moe"});
        const auto qwen = fields_of(line_with(list.out, "famspec_qwen3_moe.so"));
        REQUIRE(qwen.size() >= 5);
        CHECK(std::vector<std::string>(qwen.begin(), qwen.begin() + 5) ==
              std::vector<std::string>{"qwen3_moe", "1.0.0", "5.1", "ok", "qwen3_moe"});
    }
}

// The tables are plain integers: a plugin built with the other C++ ABI switch builds, loads and answers.
TEST_CASE("a family built with another C++ ABI loads and answers like any other") {
    Scratch scratch("abi");
    const fs::path prefix = scratch / "prefix dir";
    install_famspec(prefix);
    const fs::path build = scratch / "example build";
    const ProcessResult built = build_family(FAMSPEC_TEST_EXAMPLE_DIR, build, prefix, "-D_GLIBCXX_USE_CXX11_ABI=0");
    INFO(built.out, built.err);
    CHECK_FALSE(contains(built.err + built.out, "warning"));

    const fs::path plugins = scratch / "plugin dir";
    copy_plugin(build / "plugins/famspec_acme_moe.so", plugins);
    const ProcessResult list = run(installed_cli(prefix, {"list", "--plugin-path", plugins.string(), "--plugin-path",
                                                          (prefix / "lib/famspec/plugins").string()}));
    INFO(list.out, list.err);
    CHECK(list.signal == 0);
    CHECK(list.exit_code == 0);
    CHECK(contains(list.out, "acme_moe"));
    CHECK_FALSE(contains(list.err, "built differently"));
    const ProcessResult show = run(installed_cli(prefix, {"show", "acme", "--plugin-path", plugins.string(),
                                                          "--plugin-path", (prefix / "lib/famspec/plugins").string()}));
    CHECK(show.exit_code == 0);
    CHECK(contains(show.out, "hyper_parallel.models.acme_moe.adapter.replacements.replace_acme_moe_rms_norm"));
}

TEST_CASE("famspec new-family writes a project that builds against the installed package and loads") {
    Scratch scratch("new-family");
    const fs::path prefix = scratch / "prefix dir";
    install_famspec(prefix);
    // The bash completion and the man page come with the install.
    CHECK(contains(read(prefix / "share/bash-completion/completions/famspec"), "complete -o filenames -F _famspec"));
    CHECK(contains(read(prefix / "share/man/man1/famspec.1"), ".TH FAMSPEC 1"));
    const fs::path project = scratch / "granite moe";
    // The installed command runs the installed package's Python (sync's renderer).
    const ProcessResult written = must_run(installed_cli(
        prefix, {"new-family", "granite_moe", "--architecture", "GraniteMoeForCausalLM", "--dir", project.string()}));
    CHECK(contains(written.out, " -Dfamspec_DIR=" + (prefix / "lib/cmake/famspec").lexically_normal().string() + "\n"));

    const fs::path build = scratch / "granite build";
    build_family(project, build, prefix);
    const fs::path plugins = scratch / "plugin dir";
    copy_plugin(build / "plugins/famspec_granite_moe.so", plugins);

    const ProcessResult list = must_run(installed_cli(prefix, {"list", "--plugin-path", plugins.string()}));
    CHECK(contains(list.out, "granite_moe  0.1.0    5.1  ok      granite_moe  famspec_granite_moe.so\n"));
    const ProcessResult show =
        must_run(installed_cli(prefix, {"show", "GraniteMoeForCausalLM", "--plugin-path", plugins.string()}));
    CHECK(show.out.starts_with("family granite_moe\n  architecture:      GraniteMoeForCausalLM\n"));
    CHECK(contains(show.out,
                   "    hyper_parallel.models.granite_moe.adapter.replacements.replace_granite_moe_rms_norm\n"
                   "      -> GraniteMoeRMSNorm(module=module, module_fqn=<module_fqn>, context=<context>) from "
                   "granite_moe_components.modules [wrap_source]\n"));
    CHECK(contains(show.out, "  components:\n    granite_moe_components.modules.norm.GraniteMoeRMSNorm\n"));
    const ProcessResult resolved = must_run(installed_cli(
        prefix,
        {"resolve", "--target", "hyper_parallel.models.granite_moe.adapter.replacements.replace_granite_moe_rms_norm",
         "--module-type", "granite.modeling.GraniteRMSNorm", "--plugin-path", plugins.string()}));
    CHECK(contains(resolved.out, R"("mode":"wrap_source","new_ctor":"GraniteMoeRMSNorm","old_ctor":"GraniteRMSNorm")"));
    const ProcessResult verify = must_run(installed_cli(prefix, {"verify", "--plugin-path", plugins.string()}));
    CHECK(contains(verify.out, "granite_moe"));

    // The generated test runs the README's resolve command with the installed famspec.
    const ProcessResult tested = must_run({ctest_path(), "--test-dir", build.string(), "--no-tests=error"});
    CHECK(contains(tested.out, "Test #1: resolve_granite_moe_rms_norm "));
    CHECK(contains(tested.out, "100% tests passed, 0 tests failed out of 1"));
}

// GCC and Clang share the Itanium C++ ABI and libstdc++, and the SDK's types have one layout under
// both: across that boundary a plugin loads, with a note. Sanitizer flags are GCC's runtime, so this
// checks the plain build.
#if !FAMSPEC_TEST_SANITIZED
namespace {

// What a user sees of one family: its catalogue entry, one resolved target and the plugin's info.
struct Answers {
    std::string show;
    std::string resolved;
    std::string info;
};

Answers answers_of(const fs::path& prefix, const fs::path& plugins, const fs::path& plugin) {
    const ProcessResult show =
        must_run(installed_cli(prefix, {"show", "ClangMoeForCausalLM", "--plugin-path", plugins.string()}));
    const ProcessResult resolved = must_run(installed_cli(
        prefix,
        {"resolve", "--target", "hyper_parallel.models.clang_moe.adapter.replacements.replace_clang_moe_rms_norm",
         "--module-type", "clang.modeling.ClangRMSNorm", "--plugin-path", plugins.string()}));
    const ProcessResult info = must_run(installed_cli(prefix, {"info", plugin.string()}));
    return {show.out, resolved.out, info.out};
}

std::string core_compiler(const fs::path& prefix) {
    const ProcessResult version = must_run(installed_cli(prefix, {"--version"}));
    const std::size_t at = version.out.find(";compiler=");
    REQUIRE(at != std::string::npos);
    const std::size_t begin = at + std::string(";compiler=").size();
    return version.out.substr(begin, version.out.find_first_of(";\n", begin) - begin);
}

}  // namespace

TEST_CASE("a family built with clang++ loads into the GCC-built famspec and answers as the g++ build does") {
    Scratch scratch("clang");
    const fs::path prefix = scratch / "prefix dir";
    install_famspec(prefix);
    const std::string core = core_compiler(prefix);
    REQUIRE(core.starts_with("gcc-"));
    const fs::path project = scratch / "clang family";
    must_run(installed_cli(
        prefix, {"new-family", "clang_moe", "--architecture", "ClangMoeForCausalLM", "--dir", project.string()}));

    // The clang++ build needs nothing of the installed famspec's compiler.
    const fs::path clang_build = scratch / "clang build";
    const ProcessResult built = build_family(project, clang_build, prefix, "", FAMSPEC_TEST_CLANG_COMPILER);
    INFO(built.out, built.err);
    CHECK_FALSE(contains(built.err + built.out, "warning"));

    const fs::path clang_plugins = scratch / "clang plugins";
    const fs::path clang_plugin = copy_plugin(clang_build / "plugins/famspec_clang_moe.so", clang_plugins);
    const ProcessResult list = must_run(installed_cli(prefix, {"list", "--plugin-path", clang_plugins.string()}));
    CHECK(contains(list.out, "clang_moe  0.1.0    5.1  ok      clang_moe  famspec_clang_moe.so\n"));
    // The compiler is recorded, never compared: nothing to note.
    CHECK_FALSE(contains(list.err, "built differently"));

    const Answers from_clang = answers_of(prefix, clang_plugins, clang_plugin);
    CHECK(contains(from_clang.resolved,
                   R"("mode":"wrap_source","new_ctor":"ClangMoeRMSNorm","old_ctor":"ClangRMSNorm")"));
    CHECK(contains(from_clang.info, "  compiler:     clang-"));
    CHECK(contains(from_clang.info, " (this famspec: " + core + ")\n"));
    // The generated test runs the README's resolve command with the installed famspec.
    const ProcessResult tested = must_run({ctest_path(), "--test-dir", clang_build.string(), "--no-tests=error"});
    CHECK(contains(tested.out, "100% tests passed, 0 tests failed out of 1"));

    // The same project built by g++, in the clang++ build's place: the same answers, byte for byte,
    // but for the compiler line.
    const fs::path gcc_build = scratch / "gcc build";
    build_family(project, gcc_build, prefix);
    const fs::path gcc_plugin = copy_plugin(gcc_build / "plugins/famspec_clang_moe.so", clang_plugins);
    REQUIRE(gcc_plugin == clang_plugin);  // the same path, so that `show` prints the same plugin line
    const Answers from_gcc = answers_of(prefix, clang_plugins, gcc_plugin);
    CHECK(from_clang.show == from_gcc.show);
    CHECK(from_clang.resolved == from_gcc.resolved);
    CHECK(line_with(from_gcc.info, "  compiler:") == "  compiler:     " + core + " (this famspec: " + core + ")");
}

TEST_CASE("a famspec built with clang++ loads the g++-built plugins and gives the same digests") {
    Scratch scratch("clang core");
    const fs::path build = scratch / "clang famspec";
    must_run({FAMSPEC_TEST_CMAKE, "-S", famspec::test::source_dir(), "-B", build.string(), "-G", FAMSPEC_TEST_GENERATOR,
              "-DCMAKE_CXX_COMPILER=" + std::string(FAMSPEC_TEST_CLANG_COMPILER), "-DCMAKE_BUILD_TYPE=Release",
              "-DFAMSPEC_BUILD_TESTS=OFF", "-DFAMSPEC_PYTHON=OFF"});
    must_run({FAMSPEC_TEST_CMAKE, "--build", build.string(), "--target", "famspec", "-j2"});
    const std::string clang_famspec = (build / "bin/famspec").string();
    const std::string plugins = famspec::test::plugin_dir();

    const ProcessResult version = must_run({clang_famspec, "--version"});
    CHECK(contains(version.out, ";compiler=clang-"));
    const ProcessResult list = must_run({clang_famspec, "list", "--plugin-path", plugins});
    CHECK(contains(list.out, "qwen3_moe"));
    CHECK_FALSE(contains(list.out, "error"));
    // The compiler is recorded, never compared: a plugin built by g++ is read by a famspec built by clang++
    // without a word.
    CHECK_FALSE(contains(list.err, "built differently"));

    std::size_t plans = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(famspec::test::source_dir()) / "examples/plans")) {
        if (entry.path().extension() != ".yaml") continue;
        ++plans;
        INFO(entry.path().string());
        const std::vector<std::string> arguments{"summary",       "--digest", entry.path().string(),
                                                 "--plugin-path", plugins,    "--quiet"};
        std::vector<std::string> gcc{FAMSPEC_TEST_CLI};
        std::vector<std::string> clang{clang_famspec};
        gcc.insert(gcc.end(), arguments.begin(), arguments.end());
        clang.insert(clang.end(), arguments.begin(), arguments.end());
        const ProcessResult from_gcc = run(gcc);
        const ProcessResult from_clang = run(clang);
        CHECK(from_clang.exit_code == from_gcc.exit_code);
        CHECK(from_clang.out == from_gcc.out);
        CHECK(from_clang.out.starts_with("sha256:") == (from_gcc.exit_code == 0));
    }
    CHECK(plans >= 5);
}
#endif

TEST_CASE("every SDK type a plugin hands over has one layout under g++ and clang++") {
    Scratch scratch("layout");
    const fs::path source = fs::path(famspec::test::source_dir()) / "tests/package/sdk_layout.cpp";
    std::vector<std::string> layouts;
    for (const std::string compiler : {FAMSPEC_TEST_CXX_COMPILER, FAMSPEC_TEST_CLANG_COMPILER}) {
        const fs::path program = scratch / (fs::path(compiler).filename().string() + " layout");
        // offsetof on the SDK's non-standard-layout types is what is being compared here.
        must_run({compiler, "-std=c++20", "-Wno-invalid-offsetof", "-I",
                  (fs::path(famspec::test::source_dir()) / "sdk/include").string(), "-I",
                  (fs::path(famspec::test::source_dir()) / "core/include").string(), "-I",
                  (fs::path(famspec::test::build_dir()) / "include").string(), source.string(), "-o",
                  program.string()});
        layouts.push_back(must_run({program.string()}).out);
    }
    INFO("g++:\n", layouts[0], "clang++:\n", layouts[1]);
    const auto fingerprint = [](const std::string& layout) {
        const std::string line = line_with(layout, "build-fingerprint ");
        return line.substr(std::string("build-fingerprint ").size());
    };
    const auto without_fingerprint = [](const std::string& layout) {
        return layout.substr(0, layout.find("build-fingerprint "));
    };
    CHECK(without_fingerprint(layouts[0]) == without_fingerprint(layouts[1]));
    CHECK(contains(layouts[0], "TableHeader::arrays offset 64\n"));
    // The two builds' fingerprints agree wherever the data depends on them, and differ in the compiler.
    for (const char* field : {"abi", "format", "word-bits", "byte-order"}) {
        CHECK(famspec::fingerprint_field(fingerprint(layouts[0]), field) ==
              famspec::fingerprint_field(fingerprint(layouts[1]), field));
    }
    CHECK(famspec::fingerprint_field(fingerprint(layouts[0]), "compiler").starts_with("gcc-"));
    CHECK(famspec::fingerprint_field(fingerprint(layouts[1]), "compiler").starts_with("clang-"));
}
