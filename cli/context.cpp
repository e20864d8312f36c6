#include "context.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <ostream>

#include "escape.hpp"
#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/read_selection.hpp"
#include "famspec/required_digests.hpp"
#include "famspec/search_path.hpp"
#include "output.hpp"

namespace famspec::cli {

std::string executable_path() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("famspec") : path.string();
}

SearchPath Context::search_path() const {
    std::optional<std::string> environment;
    if (const char* value = ::secure_getenv(kPluginPathVariable)) environment = std::string(value);
    return plugin_search_path(plugin_paths, environment, default_plugin_directory());
}

LoadOptions Context::load_options(std::ostream& err) const {
    // The flag wins over the variable; either one, once given, must name a usable list.
    std::optional<std::string> pins = required_digests;
    std::string source = "--require-digests";
    if (!pins) {
        if (const char* value = ::secure_getenv(kRequireDigestsVariable)) {
            pins = std::string(value);
            source = kRequireDigestsVariable;
        }
    }
    std::optional<std::vector<RequiredDigest>> digests;
    if (pins) {
        if (pins->empty()) {
            throw UsageError(source +
                             " is given but empty: pinned digests cannot be turned off by an empty value; name a "
                             "digest list, or leave it out to load without pinned digests");
        }
        RequiredDigests read = read_required_digests(*pins);
        if (!read) throw UsageError(source + ": " + read.error());
        if (read->empty()) {
            note(err, "famspec: warning: the digest list " + *pins + " (" + source +
                          ") is empty: it pins no plugin, so no plugin loads");
        }
        digests = std::move(read).value();
    }
    LoadOptions options = load_options_for(search_path(), [this, &err](LogLevel level, std::string_view text) {
        if (level == LogLevel::warning) note(err, "famspec: warning: " + std::string(text));
    });
    const char* insecure = ::secure_getenv(kAllowInsecureVariable);
    options.allow_insecure = allow_insecure || (insecure != nullptr && std::string_view(insecure) == "1");
    options.required_digests = std::move(digests);
    return options;
}

std::shared_ptr<const Registry> Context::load(std::ostream& err, const std::optional<ReadSelection>& selection) const {
    const LoadOptions options = load_options(err);
    // A plugin file is read as data: no code in it runs, so the load needs no guard.
    const std::shared_ptr<const Registry> registry =
        selection ? load_plugins(options, *selection) : load_plugins(options);
    note_plugins(err, registry->plugins());
    for (const PluginRecord& record : registry->plugins()) {
        if (record.ok()) continue;
        const std::string text =
            ": plugin not loaded (" + std::string(name_of(record.error->stage)) + "): " + record.error->message;
        if (allow_partial) {
            note(err, "famspec: warning" + text);
        } else {
            err << "famspec: error" << text << "\n";  // an error, printed even with --quiet
        }
    }
    return registry;
}

std::shared_ptr<const Registry> Context::load_complete(std::ostream& out, std::ostream& err) const {
    auto registry = load(err);
    return complete(*registry, out, err) ? registry : nullptr;
}

bool Context::complete(const Registry& registry, std::ostream& out, std::ostream& err) const {
    if (registry.all_ok() || allow_partial) return true;
    fail(kExitFailed,
         {"plugins",
          "error: not every plugin loaded, so no answer is given; fix the plugins above, or pass --allow-partial "
          "to answer from the plugins that did load",
          {},
          {},
          {}},
         out, err);
    return false;
}

int Context::fail(int code, const CliError& error, std::ostream& out, std::ostream& err) const {
    err << "famspec: " << error.message << "\n";
    if (json) out << error_json_line(error);
    return code;
}

void Context::note(std::ostream& err, const std::string& text) const {
    if (!quiet) err << text << "\n";
}

void Context::note_plugins(std::ostream& err, std::span<const PluginRecord> records) const {
    for (const PluginRecord& record : records) {
        for (const std::string& text : record.notes) note(err, "famspec: note: " + record.path + ": " + text);
    }
}

void print_json(std::ostream& out, const boost::json::value& value) { out << canonical_json(value) << "\n"; }

namespace {

// Shrinks the widest columns until the table fits max_width (0: no limit); no column below 8.
void fit_widths(std::vector<std::size_t>& widths, std::size_t max_width) {
    constexpr std::size_t kNarrowest = 8;
    auto total = [&] {
        std::size_t sum = widths.empty() ? 0 : 2 * (widths.size() - 1);
        for (const std::size_t w : widths) sum += w;
        return sum;
    };
    while (max_width != 0 && total() > max_width) {
        const auto widest = std::max_element(widths.begin(), widths.end());
        if (*widest <= kNarrowest) return;
        --*widest;
    }
}

std::string fit_cell(const std::string& cell, std::size_t width) {
    if (cell.size() <= width) return cell + std::string(width - cell.size(), ' ');
    return cell.substr(0, width - 3) + "...";
}

}  // namespace

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& cells, std::size_t max_width) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> widths;
    for (const auto& row : cells) {
        std::vector<std::string>& escaped = rows.emplace_back();
        for (const auto& cell : row) escaped.push_back(escape_control(cell));
        if (widths.size() < row.size()) widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], escaped[i].size());
    }
    fit_widths(widths, max_width);
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) line += (i > 0 ? "  " : "") + fit_cell(row[i], widths[i]);
        line.erase(line.find_last_not_of(' ') + 1);
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
