#include "famspec/fingerprint.hpp"

#include <map>

#include "famspec/sdk/abi.hpp"

namespace famspec {
namespace {

std::map<std::string, std::string, std::less<>> fields_of(std::string_view fingerprint) {
    std::map<std::string, std::string, std::less<>> fields;
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

}  // namespace

// Compiled into the core with the core's own flags: the other side of every plugin comparison.
std::string_view core_fingerprint() { return FAMSPEC_BUILD_FINGERPRINT; }

std::string_view core_version() { return FAMSPEC_VERSION_STRING; }

std::vector<std::string> fingerprint_differences(std::string_view plugin, std::string_view core) {
    // The common case, checked twice per plugin: nothing to take apart.
    if (plugin == core) return {};
    const auto theirs = fields_of(plugin);
    const auto ours = fields_of(core);
    std::vector<std::string> differences;
    for (const auto& [key, value] : ours) {
        const auto it = theirs.find(key);
        const std::string found = it == theirs.end() ? "(missing)" : it->second;
        if (found != value) differences.push_back(key + ": plugin " + found + ", core " + value);
    }
    for (const auto& [key, value] : theirs) {
        if (!ours.contains(key)) differences.push_back(key + ": plugin " + value + ", core (missing)");
    }
    return differences;
}

}  // namespace famspec
