// How every loader stage words a refusal: the path first, then one readable sentence.
#pragma once

#include <string>
#include <vector>

#include "famspec/plugin_record.hpp"

namespace famspec::detail {

inline PluginError refusal(const std::string& path, PluginStage stage, std::string expected, std::string found,
                           std::string message, std::string system_message = {}) {
    return PluginError{.path = path,
                       .stage = stage,
                       .expected = std::move(expected),
                       .found = std::move(found),
                       .system_message = std::move(system_message),
                       .message = path + ": " + std::move(message)};
}

// A record for something that never became a candidate (a directory, a special file, a bad entry).
inline PluginRecord refused_record(PluginError error) {
    return PluginRecord{
        .path = error.path, .paths = {error.path}, .build_id = {}, .manifest = {}, .error = error, .notes = {}};
}

inline std::string joined(const std::vector<std::string>& items) {
    std::string all;
    for (const auto& item : items) all += (all.empty() ? "" : "; ") + item;
    return all;
}

}  // namespace famspec::detail
