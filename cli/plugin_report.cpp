#include "plugin_report.hpp"

#include <filesystem>
#include <ostream>

#include "escape.hpp"
#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_manifest.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

constexpr std::size_t kTableWidth = 100;

// A path relative to the search directory that holds it; the full path if none does.
std::string shown_path(const std::string& path, const SearchPath& search) {
    const std::filesystem::path file(path);
    for (const auto& directory : search.directories) {
        if (file.parent_path() == directory) return file.filename().string();
    }
    return path;
}

std::string shown_paths(const std::vector<std::string>& paths, const SearchPath& search) {
    std::vector<std::string> shown;
    for (const auto& path : paths) shown.push_back(shown_path(path, search));
    return join(shown, ", ");
}

}  // namespace

std::vector<std::string> family_names(const PluginRecord& record) {
    std::vector<std::string> names;
    if (record.manifest) {
        for (const auto& family : record.manifest->families) names.push_back(family.model_type);
    }
    return names;
}

std::string abi_of(const PluginRecord& record) {
    if (!record.manifest) return "-";
    return std::to_string(record.manifest->abi_major) + "." + std::to_string(record.manifest->abi_minor);
}

json::object search_json(const SearchPath& search) {
    json::array directories;
    for (const auto& directory : search.directories) directories.emplace_back(directory.string());
    return {{"origin", std::string(name_of(search.origin))}, {"directories", std::move(directories)}};
}

// Extra fields (crash signal) are merged in by verify.
json::object record_json(const PluginRecord& record, std::string_view status) {
    json::object out;
    out["name"] = record.manifest ? record.manifest->name : "";
    out["version"] = record.manifest ? record.manifest->version : "";
    out["description"] = record.manifest ? record.manifest->description : "";
    out["abi"] = abi_of(record);
    out["path"] = record.path;
    out["paths"] = string_array(record.paths);
    out["build_id"] = record.build_id;
    out["families"] = string_array(family_names(record));
    out["status"] = std::string(status);
    out["notes"] = string_array(record.notes);
    if (record.error) {
        out["stage"] = std::string(name_of(record.error->stage));
        out["message"] = record.error->message;
        out["expected"] = record.error->expected;
        out["found"] = record.error->found;
    } else {
        out["stage"] = nullptr;
        out["message"] = "";
    }
    return out;
}

void print_search(const Context& context, std::ostream& err, const SearchPath& search) {
    std::vector<std::string> directories;
    for (const auto& d : search.directories) directories.push_back(d.string());
    context.note(err, "plugin search path (" + std::string(name_of(search.origin)) + "): " + join(directories, ":"));
}

void print_records(std::ostream& out, std::span<const PluginRecord> records, const std::vector<std::string>& statuses,
                   const SearchPath* relative_to) {
    std::vector<std::vector<std::string>> rows{{"NAME", "VERSION", "ABI", "STATUS", "FAMILIES", "PATH"}};
    for (std::size_t i = 0; i < records.size(); ++i) {
        const PluginRecord& r = records[i];
        std::string status = statuses[i];
        if (r.error) status += " (" + std::string(name_of(r.error->stage)) + ")";
        rows.push_back({r.manifest ? r.manifest->name : "-", r.manifest ? r.manifest->version : "-", abi_of(r), status,
                        join(family_names(r), ","),
                        relative_to ? shown_paths(r.paths, *relative_to) : join(r.paths, ", ")});
    }
    print_table(out, rows, relative_to ? kTableWidth : 0);
    for (const PluginRecord& r : records) {
        if (r.error) out << "  " << name_of(r.error->stage) << ": " << escape_control(r.error->message) << "\n";
    }
}

}  // namespace famspec::cli
