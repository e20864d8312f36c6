#include "famspec/fingerprint.hpp"

#include <array>
#include <charconv>
#include <map>

#include "common/loaded_stdlib.hpp"
#include "famspec/sdk/abi.hpp"

namespace famspec {
namespace {

using Fields = std::map<std::string, std::string, std::less<>>;

Fields fields_of(std::string_view fingerprint) {
    Fields fields;
    while (!fingerprint.empty()) {
        const std::size_t end = fingerprint.find(';');
        const std::string_view field = fingerprint.substr(0, end);
        const std::size_t eq = field.find('=');
        if (eq == std::string_view::npos)
            fields[std::string(field)] = "";
        else
            fields[std::string(field.substr(0, eq))] = std::string(field.substr(eq + 1));
        if (end == std::string_view::npos) break;
        fingerprint.remove_prefix(end + 1);
    }
    return fields;
}

// How a field is compared. same: equal or refused. floor: the plugin's standard library may be
// older, or newer when the one loaded here is at least as new. note: told, never refused.
enum class Rule { same, floor, note };

struct FieldRule {
    std::string_view key;
    Rule rule;
    std::string_view set_by;  // the switch a family author changes, shown beside the field
};

constexpr std::array<FieldRule, 9> kRules{{
    {"stdlib", Rule::same, "the C++ standard library"},
    {"stdlib-release", Rule::floor, "the standard library's headers"},
    {"cxx11-abi", Rule::same, "_GLIBCXX_USE_CXX11_ABI"},
    {"debug-containers", Rule::same, "_GLIBCXX_DEBUG"},
    {"asan", Rule::same, "-fsanitize=address"},
    {"tsan", Rule::same, "-fsanitize=thread"},
    {"famspec", Rule::same, "famspec's major version"},
    {"compiler", Rule::note, "CMAKE_CXX_COMPILER"},
    {"assertions", Rule::note, "_GLIBCXX_ASSERTIONS"},
}};

const FieldRule* rule_of(std::string_view key) {
    for (const FieldRule& rule : kRules) {
        if (rule.key == key) return &rule;
    }
    return nullptr;
}

std::string value_in(const Fields& fields, std::string_view key) {
    const auto it = fields.find(key);
    return it == fields.end() ? "(missing)" : it->second;
}

std::string difference(const FieldRule& rule, const std::string& plugin, const std::string& core) {
    return std::string(rule.key) + " [" + std::string(rule.set_by) + "]: plugin " + plugin + ", core " + core;
}

int number(const std::string& text) {
    int value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

// Empty when a plugin built against standard library release `plugin` can run beside this core.
std::string release_refusal(const FieldRule& rule, const Fields& theirs, const Fields& ours) {
    const std::string plugin = value_in(theirs, rule.key);
    const std::string core = value_in(ours, rule.key);
    const int plugin_release = number(plugin);
    const int core_release = number(core);
    if (plugin_release < 0 || core_release < 0) return difference(rule, plugin, core);
    if (plugin_release <= core_release) return {};
    // Newer than the core's headers: what counts is the library this process loaded.
    if (value_in(ours, "stdlib") == "libstdc++" && value_in(theirs, "stdlib") == "libstdc++") {
        const detail::LoadedStdlib loaded = detail::loaded_libstdcxx(plugin_release);
        if (loaded.provides) return {};
        return difference(rule, plugin, core) + ", and the libstdc++ loaded here (" +
               (loaded.path.empty() ? std::string("none found") : loaded.path) + ") lacks " +
               detail::libstdcxx_first_version(plugin_release) + ": build the plugin with GCC " + core +
               "'s headers, or run famspec with a libstdc++ at least as new as the plugin's";
    }
    return difference(rule, plugin, core);
}

// The differences of one rule: refusals for same and floor, notes for note.
std::vector<std::string> compare(std::string_view plugin, std::string_view core, bool notes) {
    const Fields theirs = fields_of(plugin);
    const Fields ours = fields_of(core);
    std::vector<std::string> found;
    for (const FieldRule& rule : kRules) {
        if ((rule.rule == Rule::note) != notes) continue;
        const std::string mine = value_in(ours, rule.key);
        const std::string their = value_in(theirs, rule.key);
        if (rule.rule == Rule::floor) {
            if (std::string why = release_refusal(rule, theirs, ours); !why.empty()) found.push_back(std::move(why));
        } else if (mine != their && !(notes && !theirs.contains(rule.key))) {
            found.push_back(difference(rule, their, mine));
        }
    }
    // A field this core does not know may change the ABI in a way it cannot judge.
    if (!notes) {
        for (const auto& [key, value] : theirs) {
            if (rule_of(key) == nullptr) found.push_back(key + ": plugin " + value + ", core (unknown field)");
        }
    }
    return found;
}

}  // namespace

// Compiled into the core with the core's own flags: the other side of every plugin comparison.
std::string_view core_fingerprint() { return FAMSPEC_BUILD_FINGERPRINT; }

std::string_view core_version() { return FAMSPEC_VERSION_STRING; }

std::vector<std::string> fingerprint_differences(std::string_view plugin, std::string_view core) {
    // The common case, checked twice per plugin: nothing to take apart.
    if (plugin == core) return {};
    return compare(plugin, core, false);
}

std::vector<std::string> fingerprint_notes(std::string_view plugin, std::string_view core) {
    if (plugin == core) return {};
    return compare(plugin, core, true);
}

std::string fingerprint_field(std::string_view fingerprint, std::string_view key) {
    const Fields fields = fields_of(fingerprint);
    const auto it = fields.find(key);
    return it == fields.end() ? std::string() : it->second;
}

}  // namespace famspec
