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
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "family_templates.hpp"
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

// A C++ string literal of a validated name: its characters need no escape.
std::string string_literal(std::string_view name) { return "\"" + std::string(name) + "\""; }

using Values = std::vector<std::pair<std::string_view, std::string>>;

// The name of the placeholder text[at] opens (@NAME@, NAME of A-Z and '_'), or "" if it opens none.
std::string_view placeholder_at(std::string_view text, std::size_t at) {
    const std::size_t close = text.find('@', at + 1);
    if (text[at] != '@' || close == std::string_view::npos || close == at + 1) return {};
    const std::string_view name = text.substr(at + 1, close - at - 1);
    return std::all_of(name.begin(), name.end(), [](char c) { return is_upper(c) || c == '_'; }) ? name
                                                                                                 : std::string_view{};
}

// The template (sdk/templates/family/, embedded by the build) with each placeholder replaced in one
// pass, as sync expands the same files (python/famspec/sync/template.py): a line holding only a
// placeholder whose value is empty is left out. A placeholder without a value is the build's mistake.
std::string expand(std::string_view text, const Values& values) {
    std::string out;
    for (std::size_t begin = 0; begin < text.size();) {
        const std::size_t newline = text.find('\n', begin);
        const std::string_view line =
            text.substr(begin, newline == std::string_view::npos ? newline : newline + 1 - begin);
        begin += line.size();
        for (std::size_t at = 0; at < line.size();) {
            const std::string_view name = placeholder_at(line, at);
            if (name.empty()) {
                out += line[at++];
                continue;
            }
            const auto value =
                std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
            if (value == values.end())
                throw std::logic_error("family template: no value for @" + std::string(name) + "@");
            const std::string_view rest = line.substr(at + name.size() + 2);
            if (at == 0 && value->second.empty() && (rest.empty() || rest == "\n")) break;  // the line is left out
            out += value->second;
            at += name.size() + 2;
        }
    }
    return out;
}

struct File {
    std::string name;
    std::string text;
};

// The project's files: sync's template files, with this family's names and new-family's example factory,
// whose target and module type the README's resolve command and the generated test share.
std::vector<File> render(const NewFamilyOptions& options) {
    const std::string& name = options.name;
    const std::string target = "hyper_parallel.models." + name + ".adapter.replacements.replace_" + name + "_rms_norm";
    const std::string module_type =
        "transformers.models." + name + ".modeling_" + name + "." + camel_case(name) + "RMSNorm";
    Values values = {
        {"FAMILY", name},
        {"ARCHITECTURE", options.architecture},
        {"CLASS", camel_case(name)},
        {"FAMSPEC_VERSION", std::to_string(FAMSPEC_VERSION_MAJOR) + "." + std::to_string(FAMSPEC_VERSION_MINOR)},
        {"VERSION", "0.1.0"},
        {"WRITTEN_BY", "written by `famspec new-family`"},
        {"ABOUT",
         "written by `famspec new-family`.\n"
         "// Each declaration below maps to one resolution channel; see docs/plugin-authors.md in the famspec "
         "sources."},
        // sync's generated regions; this project is its author's throughout.
        {"BEGIN_REGION", ""},
        {"END_REGION", ""},
        {"AMENDMENTS", ""},
        {"CLANG_FORMAT_ON", ""},
        {"ASSETS", ""},
        {"ASSETS_INCLUDE", ""},
        {"PLUGIN_NAME", string_literal(name)},
        {"PLUGIN_VERSION", string_literal("0.1.0")},
        {"PLUGIN_DESCRIPTION", string_literal(camel_case(name) + " family")},
        {"RESOLVE_TARGET", target},
        {"MODULE_TYPE", module_type},
        {"TEST_PURPOSE", "the README's resolve command, which fails unless the example factory resolves"},
        {"TEST_NAME", "resolve_" + name + "_rms_norm"},
        {"TEST_COMMAND", "resolve --target " + target + "\n            --module-type " + module_type +
                             " --plugin-path ${CMAKE_BINARY_DIR}/plugins"},
    };
    std::string declarations = expand(family_templates::example_declarations, values);
    declarations.pop_back();  // the placeholder's line ends it
    values.emplace_back("DECLARATIONS", std::move(declarations));
    return {
        {"CMakeLists.txt", expand(family_templates::CMakeLists, values)},
        {"plugin.cpp", expand(family_templates::plugin, values)},
        {"README.md", expand(family_templates::README, values)},
    };
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
