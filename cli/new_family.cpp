#include "new_family.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "famspec/sdk/version.hpp"

namespace famspec::cli {
namespace {
namespace fs = std::filesystem;

// The name becomes a Python package (hyper_parallel.models.<name>), a CMake target and a file name.
constexpr auto kReservedNames = std::to_array<std::string_view>({
    "all",    "clean", "help",   "install", "package", "test",    "edit_cache", "rebuild_cache",
    "and",    "as",    "assert", "async",   "await",   "break",   "class",      "continue",
    "def",    "del",   "elif",   "else",    "except",  "finally", "for",        "from",
    "global", "if",    "import", "in",      "is",      "lambda",  "nonlocal",   "not",
    "or",     "pass",  "raise",  "return",  "try",     "while",   "with",       "yield",
    "match",  "case",  "type",   "famspec",
});

mode_t current_umask() {
    const mode_t mask = umask(0);
    umask(mask);
    return mask;
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string name_problem(std::string_view name) {
    if (name.empty()) return "is empty";
    if (name.size() > 64) return "is longer than 64 characters";
    if (!is_lower(name.front())) return "must start with a lower-case letter";
    if (!std::all_of(name.begin(), name.end(), [](char c) { return is_lower(c) || is_digit(c) || c == '_'; }))
        return "may only contain a-z, 0-9 and '_'";
    if (name.back() == '_') return "must not end with '_'";
    if (std::find(kReservedNames.begin(), kReservedNames.end(), name) != kReservedNames.end())
        return "is a reserved word in Python or CMake";
    return {};
}

std::string architecture_problem(std::string_view architecture) {
    if (architecture.empty()) return "is empty";
    if (architecture.size() > 128) return "is longer than 128 characters";
    if (!is_upper(architecture.front()) && !is_lower(architecture.front())) return "must start with a letter";
    if (!std::all_of(architecture.begin(), architecture.end(),
                     [](char c) { return is_lower(c) || is_upper(c) || is_digit(c) || c == '_'; }))
        return "may only contain letters, digits and '_'";
    return {};
}

// acme_moe -> AcmeMoe
std::string camel_case(std::string_view name) {
    std::string out;
    bool upper = true;
    for (const char c : name) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper && is_lower(c) ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
    }
    return out;
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

constexpr std::string_view kCMakeLists = R"(# The @NAME@ family plugin, built against an installed famspec:
#
#   cmake -S . -B build -DCMAKE_PREFIX_PATH=<famspec install prefix>
#   cmake --build build
#   famspec list --plugin-path "$PWD/build/plugins"
cmake_minimum_required(VERSION 3.25)
project(@NAME@_family VERSION 0.1.0 LANGUAGES CXX)

find_package(famspec @FAMSPEC_VERSION@ CONFIG REQUIRED)

# Everything a plugin needs (hidden visibility, export list, -Wl,--no-undefined, the embedded
# manifest) comes with famspec_add_plugin(); the result is build/plugins/famspec_@NAME@.so.
# `cmake --install build` copies it into the famspec plugin directory.
famspec_add_plugin(@NAME@
    SOURCES plugin.cpp
    OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/plugins
    INSTALL_DESTINATION ${famspec_PLUGIN_DIR})

# `ctest --test-dir build`: the README's resolve command, run by the famspec this project was
# configured against; it exits 1 unless the example factory resolves.
enable_testing()
add_test(NAME resolve_@NAME@_rms_norm
    COMMAND famspec::famspec resolve --target @RESOLVE_TARGET@
        --module-type @MODULE_TYPE@ --plugin-path ${CMAKE_BINARY_DIR}/plugins)
)";

constexpr std::string_view kPlugin =
    R"(// The @NAME@ family (@ARCHITECTURE@). Each declaration below maps to one resolution channel; see
// docs/plugin-authors.md in the famspec sources.
#include "famspec/sdk.hpp"

FAMSPEC_PLUGIN("@NAME@", "0.1.0", "@CLASS@ family")(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    const std::string adapter = "hyper_parallel.models.@NAME@.adapter.";
    const std::string components = "@NAME@_components.modules";

    // The component the example factory constructs. A family that uses the shipped components
    // (hyper_parallel.components.modules) registers none and names that package in wraps().
    Components{components}
        .component({
            .name = "@CLASS@RMSNorm",
            .submodule = "norm",
            .signature = {param("module"), kw_only, param("eps", 1e-6), param("module_fqn", ""),
                          param("context", famspec::none)},
            .source = {},
        })
        .register_into(registrar);

    Family family{"@NAME@", "@ARCHITECTURE@"};
    // replace_module: @CLASS@RMSNorm(module=module, module_fqn=module_fqn, context=context)
    family.factory(adapter + "replacements.replace_@NAME@_rms_norm")
        .wraps("@CLASS@RMSNorm", components)
        .bind("module_fqn")
        .bind("context");
    // Add CP wrappers (family.cp_wrapper), MoE archetypes (family.archetype) and aliases
    // (family.alias) here.
    family.register_into(registrar);
}
)";

constexpr std::string_view kReadme = R"(# @NAME@: a famspec family plugin

Family `@NAME@` (architecture `@ARCHITECTURE@`), written by `famspec new-family`.

```sh
cmake -S . -B build -DCMAKE_PREFIX_PATH=<famspec install prefix>
cmake --build build
famspec list --plugin-path "$PWD/build/plugins"
famspec show @NAME@ --plugin-path "$PWD/build/plugins"
famspec resolve --target @RESOLVE_TARGET@ \
    --module-type @MODULE_TYPE@ --plugin-path "$PWD/build/plugins"
ctest --test-dir build   # runs the resolve command above
```

`cmake --install build` copies `famspec_@NAME@.so` into the plugin directory of that famspec, where
it is found without `--plugin-path`.

Any compiler will do (GCC or Clang), as long as the standard library, `_GLIBCXX_USE_CXX11_ABI`,
debug containers and sanitizer flags are the ones famspec was built with, and its libstdc++ is not
newer than the one a job loads; `famspec list` names any difference, and notes another compiler.

Targets follow `hyper_parallel.models.@NAME@.adapter.<module>.<name>`: the directory after
`models` must name the family, or famspec rejects the declaration at load time.
)";

struct File {
    std::string name;
    std::string text;
};

std::vector<File> render(const NewFamilyOptions& options) {
    const std::vector<std::pair<std::string_view, std::string>> values = {
        // The README's resolve command and the generated test share these (expanded first).
        {"@RESOLVE_TARGET@", "hyper_parallel.models.@NAME@.adapter.replacements.replace_@NAME@_rms_norm"},
        {"@MODULE_TYPE@", "transformers.models.@NAME@.modeling_@NAME@.@CLASS@RMSNorm"},
        {"@NAME@", options.name},
        {"@ARCHITECTURE@", options.architecture},
        {"@CLASS@", camel_case(options.name)},
        {"@FAMSPEC_VERSION@", std::to_string(FAMSPEC_VERSION_MAJOR) + "." + std::to_string(FAMSPEC_VERSION_MINOR)},
    };
    std::vector<File> files = {
        {"CMakeLists.txt", std::string(kCMakeLists)},
        {"plugin.cpp", std::string(kPlugin)},
        {"README.md", std::string(kReadme)},
    };
    for (File& file : files) {
        for (const auto& [key, value] : values) replace_all(file.text, key, value);
    }
    return files;
}

// Writes the files into a fresh sibling directory, then renames it to `directory` only if nothing
// is there yet (RENAME_NOREPLACE), so a project appears whole or not at all. Returns a problem, or "".
std::string write_project(const fs::path& directory, const std::vector<File>& files) {
    const fs::path parent = directory.parent_path().empty() ? fs::path(".") : directory.parent_path();
    std::string pattern = (parent / ("." + directory.filename().string() + ".new-family.XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) return "cannot create " + directory.string() + ": " + std::strerror(errno);
    const fs::path staging = pattern;
    std::string problem;
    for (const File& file : files) {
        std::ofstream stream(staging / file.name, std::ios::binary | std::ios::trunc);
        stream << file.text;
        stream.close();
        if (!stream) {
            problem = "cannot write " + (directory / file.name).string();
            break;
        }
    }
    if (problem.empty() && chmod(staging.c_str(), 0777 & ~current_umask()) != 0) {
        problem = "cannot set the mode of " + directory.string() + ": " + std::strerror(errno);
    }
    if (problem.empty() && renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, directory.c_str(), RENAME_NOREPLACE) != 0) {
        problem = errno == EEXIST ? directory.string() + " already exists; choose another --dir or remove it"
                                  : "cannot create " + directory.string() + ": " + std::strerror(errno);
    }
    if (!problem.empty()) {
        std::error_code ignored;
        fs::remove_all(staging, ignored);
    }
    return problem;
}

// The message on stderr, and with --json the same error as JSON on stdout.
int refuse(bool json, int code, const std::string& message, std::ostream& out, std::ostream& err) {
    err << "famspec new-family: " << message << "\n";
    if (json) {
        // A refused name is a usage error (2); a directory that exists or cannot be written is not (1).
        const boost::json::object error{{"column", nullptr},
                                        {"file", nullptr},
                                        {"kind", code == 2 ? "usage" : "io"},
                                        {"line", nullptr},
                                        {"message", message}};
        out << boost::json::serialize(boost::json::object{{"error", error}}) << "\n";
    }
    return code;
}

// How CMake finds this famspec: its own CMake package when it has one next to it (an install
// prefix, or a pip install, whose command sits in famspec/data/bin), else the prefix to name.
std::string famspec_location_argument() {
    std::error_code ec;
    const fs::path executable = fs::read_symlink("/proc/self/exe", ec);
    const fs::path cmake_dir = executable.parent_path().parent_path() / "lib" / "cmake" / "famspec";
    if (!ec && fs::is_regular_file(cmake_dir / "famspecConfig.cmake", ec)) {
        return "-Dfamspec_DIR=" + cmake_dir.lexically_normal().string();
    }
    return "-DCMAKE_PREFIX_PATH=<famspec install prefix>";
}

}  // namespace

int new_family(const NewFamilyOptions& options, std::ostream& out, std::ostream& err, bool json) {
    if (const std::string problem = name_problem(options.name); !problem.empty()) {
        return refuse(json, 2,
                      "invalid family name '" + options.name + "': " + problem +
                          " (it becomes hyper_parallel.models.<name> and famspec_<name>.so)",
                      out, err);
    }
    if (const std::string problem = architecture_problem(options.architecture); !problem.empty()) {
        return refuse(json, 2,
                      "invalid architecture '" + options.architecture + "': " + problem + " (e.g. AcmeMoeForCausalLM)",
                      out, err);
    }
    fs::path directory =
        (options.directory.empty() ? fs::path(options.name) : fs::path(options.directory)).lexically_normal();
    if (directory.filename().empty()) directory = directory.parent_path();  // "dir/"
    if (directory.filename().empty() || directory.filename() == "." || directory.filename() == "..") {
        return refuse(json, 2, "--dir must name a directory to create, got '" + options.directory + "'", out, err);
    }
    const std::vector<File> files = render(options);
    if (const std::string problem = write_project(directory, files); !problem.empty()) {
        return refuse(json, 1, problem, out, err);
    }
    std::error_code ec;
    const fs::path absolute = fs::absolute(directory, ec).lexically_normal();
    if (json) {
        boost::json::array names;
        for (const File& file : files) names.emplace_back(file.name);
        out << boost::json::serialize(boost::json::object{{"architecture", options.architecture},
                                                          {"directory", directory.string()},
                                                          {"files", std::move(names)},
                                                          {"name", options.name}})
            << "\n";
        return 0;
    }
    out << "wrote family '" << options.name << "' (" << options.architecture << ") to " << directory.string() << ":\n";
    for (const File& file : files) out << "  " << file.name << "\n";
    out << "build it against an installed famspec:\n"
        << "  cmake -S " << directory.string() << " -B " << (directory / "build").string() << " "
        << famspec_location_argument() << "\n"
        << "  cmake --build " << (directory / "build").string() << "\n"
        << "  famspec list --plugin-path " << (absolute / "build" / "plugins").string() << "\n";
    return 0;
}

}  // namespace famspec::cli
