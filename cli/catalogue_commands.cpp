#include "catalogue_commands.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"
#include "famspec/sdk/abi.hpp"
#include "plan_input.hpp"
#include "plugin_commands.hpp"
#include "plugin_report.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

void print_list(std::ostream& out, const std::string& title, const std::vector<std::string>& items) {
    out << "  " << title << ":" << (items.empty() ? " (none)" : "") << "\n";
    for (const auto& item : items) out << "    " << item << "\n";
}

void print_manifest(std::ostream& out, const PluginRecord& record) {
    const PluginManifest& m = *record.manifest;
    out << "plugin " << m.name << " " << m.version << " (" << record.path << ")\n";
    out << "  description:  " << m.description << "\n";
    out << "  ABI:          " << m.abi_major << "." << m.abi_minor << " (this famspec: " << kAbiMajor << "."
        << kAbiMinor << "), tables " << m.table_bytes << " bytes\n";
    out << "  fingerprint:  " << m.fingerprint << "\n";
    const std::string compiler = fingerprint_field(m.fingerprint, "compiler");
    out << "  compiler:     " << (compiler.empty() ? "(not recorded)" : compiler)
        << " (this famspec: " << fingerprint_field(core_fingerprint(), "compiler") << ")\n";
    out << "  build id:     " << (record.build_id.empty() ? "(none)" : record.build_id) << "\n";
    std::vector<std::string> families;
    for (const auto& f : m.families) families.push_back(f.model_type + " (" + f.architecture + ")");
    print_list(out, "families", families);
    print_list(out, "factories", m.factories);
    std::vector<std::string> archetypes;
    for (const auto& a : m.archetypes) archetypes.push_back(a.compute_factory + " (" + join(a.fingerprint, ", ") + ")");
    print_list(out, "archetypes", archetypes);
    print_list(out, "cp wrappers", m.cp_wrappers);
    print_list(out, "components", m.components);
}

}  // namespace

int plugin_info(const Context& context, const std::string& file, std::ostream& out, std::ostream& err) {
    std::error_code ec;
    LoadOptions options;
    options.files.emplace_back(std::filesystem::absolute(file, ec).lexically_normal());
    options.allow_insecure = true;  // reading a manifest runs no plugin code
    const std::vector<PluginRecord> records = inspect_candidates(options);
    if (records.empty())
        return context.fail(kExitFailed, {"plugin", file + ": not a plugin candidate", file, {}, {}}, out, err);
    const PluginRecord& record = records.front();
    context.note_plugins(err, records);
    if (context.json) {
        json::object report = record_json(record, record.ok() ? "ok" : "error");
        report["manifest"] = record.manifest ? json::parse(to_json(*record.manifest)) : json::value(nullptr);
        report["fingerprint"] = record.manifest ? json::value(record.manifest->fingerprint) : json::value(nullptr);
        report["core"] = json::object{{"abi", std::to_string(kAbiMajor) + "." + std::to_string(kAbiMinor)},
                                      {"fingerprint", std::string(core_fingerprint())}};
        print_json(out, report);
    } else if (record.manifest) {
        print_manifest(out, record);
    }
    if (record.ok()) return kExitOk;
    const PluginError& error = *record.error;
    if (context.json) return kExitFailed;  // the report says why
    return context.fail(kExitFailed,
                        {"plugin", std::string(name_of(error.stage)) + ": " + error.message, record.path, {}, {}}, out,
                        err);
}

int list_components(const Context& context, std::ostream& out, std::ostream& err) {
    const auto registry = context.load(err);
    std::vector<const Registered<Component>*> components;
    for (const auto& c : registry->components()) components.push_back(&c);
    auto path_of = [](const Registered<Component>& c) { return defining_path(*c); };
    std::sort(components.begin(), components.end(), [&](auto* a, auto* b) { return path_of(*a) < path_of(*b); });
    json::array list;
    std::vector<std::vector<std::string>> rows{{"COMPONENT", "IMPORT FROM", "PLUGIN", "SIGNATURE"}};
    for (const auto* c : components) {
        std::vector<std::string> parameters;
        for (const Parameter& p : (*c)->parameters) parameters.push_back(describe(p));
        list.push_back(json::object{{"name", std::string((*c)->name)},
                                    {"import_module", std::string((*c)->import_module)},
                                    {"defining_module", std::string((*c)->defining_module)},
                                    {"signature", string_array(parameters)},
                                    {"plugin", c->plugin},
                                    {"path", c->path}});
        rows.push_back({path_of(*c), std::string((*c)->import_module), c->plugin, "(" + join(parameters, ", ") + ")"});
    }
    if (context.json) {
        print_json(out, json::object{{"components", std::move(list)}});
    } else {
        print_table(out, rows, 0);
    }
    return registry->all_ok() ? kExitOk : kExitFailed;
}

int interface_component(const Context& context, const std::string& family, std::ostream& out, std::ostream& err) {
    const auto registry = context.load(err);
    if (registry->find_family(family) == nullptr) return unknown_family(context, *registry, family, out, err);
    const Resolver resolver(registry);
    const Resolution<std::string> r = resolver.interface_component_class(family);
    const Resolved<std::string>* resolved = r.resolved();
    if (context.json) {
        print_json(out, json::object{{"model_type", family},
                                     {"interface_component", resolved ? json::value(*resolved->spec) : nullptr},
                                     {"reason", r.reason()}});
    } else {
        out << (resolved ? *resolved->spec : "None") << "\n";
    }
    if (const Broken* broken = std::get_if<Broken>(&r.state)) {
        return context.fail(kExitFailed, {"error", "error: " + broken->reason, {}, {}, {}}, out, err);
    }
    if (const NotCovered* not_covered = std::get_if<NotCovered>(&r.state)) {
        context.note(err, "famspec: " + not_covered->reason);
    }
    return kExitOk;
}

int external_state(const Context& context, const std::string& path, const std::optional<std::string>& model_type,
                   std::ostream& out, std::ostream& err) {
    const PlanParse parsed = read_plan(path);
    if (!parsed) return fail_plan(context, parsed, out, err);
    std::vector<Injection> injections;
    for (const PlanEntry& entry : parsed->entries) {
        if (entry.local_compute_fn)
            injections.push_back({entry.local_compute_fn->path, entry.local_compute_fn->options});
    }
    const Resolver resolver(context.load(err));
    const std::optional<std::string> family = plan_family(*parsed, model_type, resolver.registry()).name;
    const std::vector<std::string> classes = resolver.external_state_classes_for(family, injections);
    if (context.json) {
        print_json(out, json::object{{"plan", path},
                                     {"model_type", family ? json::value(*family) : nullptr},
                                     {"external_state_classes", string_array(classes)}});
    } else {
        for (const auto& c : classes) out << c << "\n";
    }
    return kExitOk;
}

}  // namespace famspec::cli
