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

// hyper_parallel.models.<family>.adapter.<...>: the factory-channel convention.
inline bool is_adapter_path(std::string_view target) {
    const auto parts = split_dotted(target);
    return parts.size() >= 4 && parts[0] == "hyper_parallel" && parts[1] == "models" && parts[3] == "adapter";
}

// The <family> directory of hyper_parallel.models.<family>...
inline std::optional<std::string> family_directory(std::string_view target) {
    const auto parts = split_dotted(target);
    if (parts.size() >= 3 && parts[0] == "hyper_parallel" && parts[1] == "models" && !parts[2].empty()) return parts[2];
    return std::nullopt;
}

// The <family> directory of a complete declaration target hyper_parallel.models.<family>.adapter.<module>.<name>
// (no empty part), or nothing: what a factory or CP wrapper must be registered under.
inline std::optional<std::string> declaration_family_directory(std::string_view target) {
    const auto parts = split_dotted(target);
    const bool complete = parts.size() >= 5 && is_adapter_path(target) &&
                          std::none_of(parts.begin(), parts.end(), [](const auto& p) { return p.empty(); });
    return complete ? std::optional<std::string>(parts[2]) : std::nullopt;
}

}  // namespace famspec::detail
