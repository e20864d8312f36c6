// famspec snapshot: the loaded plugin set as canonical JSON with its digest, and --compare against a
// stored one (0 same, 1 differs, each difference listed; 2 a bad file).
#include "famspec/snapshot.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <boost/json.hpp>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include "command.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

void print_snapshot(std::ostream& out, const std::string& snapshot) {
    const json::object document = json::parse(snapshot).as_object();
    const json::object& core = document.at("famspec").as_object();
    out << "famspec " << std::string_view(core.at("version").as_string()) << " (plugin ABI "
        << std::string_view(core.at("abi").as_string()) << ")\n";
    out << "snapshot " << std::string_view(document.at("digest").as_string()) << "\n";
    std::vector<std::vector<std::string>> rows{{"NAME", "VERSION", "STATUS", "SHA256", "BUILD-ID", "FAMILIES"}};
    for (const json::value& value : document.at("plugins").as_array()) {
        const json::object& plugin = value.as_object();
        std::vector<std::string> families;
        for (const json::value& family : plugin.at("families").as_array()) families.emplace_back(family.as_string());
        const std::string sha = std::string(plugin.at("sha256").as_string());
        rows.push_back({std::string(plugin.at("name").as_string()), std::string(plugin.at("version").as_string()),
                        std::string(plugin.at("status").as_string()),
                        sha.substr(0, std::min<std::size_t>(sha.size(), 19)),
                        std::string(plugin.at("build_id").as_string()), join(families, ",")});
    }
    print_table(out, rows);
}

int compare(const std::string& file, const std::string& live, std::ostream& out, std::ostream& err) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        err << "famspec: " << file << ": cannot read the snapshot\n";
        return kExitUsage;
    }
    const std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const SnapshotComparison comparison = compare_snapshots(stored, live);
    if (!comparison) {
        err << "famspec: " << file << ": " << comparison.error() << "\n";
        return kExitUsage;
    }
    if (comparison->empty()) {
        out << "same plugin set: " << snapshot_digest(live) << "\n";
        return kExitOk;
    }
    out << file << " -> loaded plugins: " << comparison->size() << " difference(s)\n";
    for (const std::string& difference : *comparison) out << "  " << difference << "\n";
    return kExitFailed;
}

}  // namespace

void setup_snapshot(CLI::App& app, Context& context) {
    auto compare_with = std::make_shared<std::optional<std::string>>();  // a stored snapshot file
    CLI::App* command =
        add_command(app, "snapshot", "The loaded plugin set: versions, file hashes, build-ids, families, digest");
    command->add_option("--compare", *compare_with, "Compare with a stored snapshot (0 same, 1 differs, 2 bad file)")
        ->type_name("FILE");
    on_run(command, context, [&context, compare_with] {
        auto& out = std::cout;
        auto& err = std::cerr;
        const auto registry = context.load(err);
        const std::string live = snapshot(*registry);
        // The set is shown either way (failed plugins with their status), but a set in which a plugin
        // failed is a failure, as everywhere: 1 unless --allow-partial (or the compared file is bad).
        const int loaded = registry->all_ok() || context.allow_partial ? kExitOk : kExitFailed;
        if (*compare_with) return std::max(compare(**compare_with, live, out, err), loaded);
        if (context.json)
            out << live << "\n";
        else
            print_snapshot(out, live);
        return loaded;
    });
}

}  // namespace famspec::cli
