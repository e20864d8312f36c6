// Dotted Python paths and the two naming conventions resolution relies on.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace famspec::detail {

inline std::vector<std::string> split_dotted(std::string_view path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        parts.emplace_back(path.substr(start, dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return parts;
}

// A dotted path's module and its last name: "a.b.C" is {"a.b", "C"}; a path without a dot is a name
// in no module.
struct ModuleAndName {
    std::string_view module;
    std::string_view name;
};

inline ModuleAndName split_last(std::string_view path) {
    const std::size_t dot = path.rfind('.');
    if (dot == std::string_view::npos) return {{}, path};
    return {path.substr(0, dot), path.substr(dot + 1)};
}

// The <family> directory of hyper_parallel.models.<family>... Resolution asks this on every call,
// so it is read in place, without splitting the path.
inline constexpr std::string_view kModelsRoot = "hyper_parallel.models.";
inline constexpr std::string_view kComponentsRoot = "hyper_parallel.components.";

inline std::optional<std::string_view> family_directory_view(std::string_view target) {
    if (!target.starts_with(kModelsRoot)) return std::nullopt;
    const std::string_view rest = target.substr(kModelsRoot.size());
    const std::string_view directory = rest.substr(0, rest.find('.'));
    if (directory.empty()) return std::nullopt;
    return directory;
}

inline std::optional<std::string> family_directory(std::string_view target) {
    const auto directory = family_directory_view(target);
    return directory ? std::optional<std::string>(*directory) : std::nullopt;
}

// hyper_parallel.models.<family>.adapter[.<...>]: the factory-channel convention.
inline bool is_adapter_path(std::string_view target) {
    const auto directory = family_directory_view(target);
    if (!directory) return false;
    const std::string_view after = target.substr(kModelsRoot.size() + directory->size());
    return after == ".adapter" || after.starts_with(".adapter.");
}

// hyper_parallel.components.…: a generic component named directly, whatever the family.
inline bool is_component_path(std::string_view target) { return target.starts_with(kComponentsRoot); }

// The <family> directory of a complete declaration target hyper_parallel.models.<family>.adapter.<module>.<name>
// (no empty part), or nothing: what a factory or CP wrapper must be registered under.
inline std::optional<std::string> declaration_family_directory(std::string_view target) {
    const auto parts = split_dotted(target);
    const bool complete = parts.size() >= 5 && is_adapter_path(target) &&
                          std::none_of(parts.begin(), parts.end(), [](const auto& p) { return p.empty(); });
    return complete ? std::optional<std::string>(parts[2]) : std::nullopt;
}

}  // namespace famspec::detail
