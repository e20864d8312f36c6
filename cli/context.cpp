#include "context.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "famspec/canonical_json.hpp"

namespace famspec::cli {

std::string executable_path() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("famspec") : path.string();
}

std::string_view origin_name(SearchPath::Origin origin) {
    switch (origin) {
        case SearchPath::Origin::flag:
            return "--plugin-path";
        case SearchPath::Origin::environment:
            return kPluginPathVariable;
        case SearchPath::Origin::default_directory:
            return "default";
    }
    return "default";
}

SearchPath Context::search_path() const {
    std::optional<std::string> environment;
    if (const char* value = ::secure_getenv(kPluginPathVariable)) environment = std::string(value);
    return plugin_search_path(plugin_paths, environment, default_plugin_directory());
}

LoadOptions Context::load_options(std::ostream& err) const {
    LoadOptions options = load_options_from_environment(plugin_paths, [&err](LogLevel level, std::string_view text) {
        if (level == LogLevel::warning) err << "famspec: warning: " << text << "\n";
    });
    if (allow_insecure) options.allow_insecure = true;
    if (!required_digests.empty()) {
        options.search_errors.erase(std::remove_if(options.search_errors.begin(), options.search_errors.end(),
                                                   [](const PluginError& e) { return e.stage == PluginStage::trust; }),
                                    options.search_errors.end());
        require_digests(options, required_digests);
    }
    return options;
}

std::shared_ptr<const Registry> Context::load(std::ostream& err) const {
    auto registry = load_plugins(load_options(err));
    for (const PluginRecord& record : registry->plugins()) {
        if (!record.ok()) {
            err << "famspec: " << (allow_partial ? "warning" : "error") << ": plugin not loaded ("
                << stage_name(record.error->stage) << "): " << record.error->message << "\n";
        }
    }
    return registry;
}

std::shared_ptr<const Registry> Context::load_complete(std::ostream& err) const {
    auto registry = load(err);
    if (registry->all_ok() || allow_partial) return registry;
    err << "famspec: error: not every plugin loaded, so no answer is given; fix the plugins above, or pass "
           "--allow-partial to answer from the plugins that did load\n";
    return nullptr;
}

void print_json(std::ostream& out, const boost::json::value& value) { out << canonical_json(value) << "\n"; }

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> widths;
    for (const auto& row : rows) {
        if (widths.size() < row.size()) widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
        }
        out << line << "\n";
    }
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += separator;
        out += item;
    }
    return out;
}

}  // namespace famspec::cli
