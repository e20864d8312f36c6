// famspec verify: every plugin file read and checked whole, as a load checks it, with every refusal
// named by its file and stage. A plugin is data, so nothing in a file can crash, hang or end famspec.
#include <boost/json.hpp>
#include <ostream>

#include "famspec/plugin_inspection.hpp"
#include "plugin_commands.hpp"
#include "plugin_report.hpp"

namespace famspec::cli {
namespace json = boost::json;

int verify_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err) {
    const SearchPath search = context.search_path();
    const std::shared_ptr<const Registry> registry =
        load_plugins(context.load_options(err), {}, ComponentLinks::left_to_the_set);
    const std::span<const PluginRecord> records = registry->plugins();
    context.note_plugins(err, records);
    // A plugin that loads but declares nothing is not an error, but it is almost always a mistake.
    std::vector<std::optional<std::string>> warnings(records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        const PluginRecord& record = records[i];
        if (!record.ok() || !record.manifest || !record.manifest->registers_nothing()) continue;
        warnings[i] = "plugin '" + record.manifest->name +
                      "' registers nothing: it declares no family, factory, archetype, CP wrapper or component";
        context.note(err, "famspec: warning: " + record.path + ": " + *warnings[i]);
    }
    std::vector<std::string> statuses;
    for (const PluginRecord& record : records) statuses.emplace_back(record.ok() ? "ok" : "error");
    if (context.json) {
        json::array plugins;
        for (std::size_t i = 0; i < records.size(); ++i) {
            json::object entry = record_json(records[i], statuses[i]);
            if (warnings[i]) entry["warnings"] = json::array{json::value(*warnings[i])};
            plugins.push_back(std::move(entry));
        }
        print_json(out, json::object{{"search_path", search_json(search)}, {"plugins", std::move(plugins)}});
    } else {
        print_search(context, err, search);
        print_records(out, records, statuses, long_list ? nullptr : &search);
    }
    return registry->all_ok() ? kExitOk : kExitFailed;
}

}  // namespace famspec::cli
