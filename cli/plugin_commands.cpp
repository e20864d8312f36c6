#include "plugin_commands.hpp"

#include <boost/json.hpp>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/family_suggestions.hpp"
#include "famspec/names.hpp"
#include "famspec/nearest_names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/python_text.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"
#include "plugin_report.hpp"

namespace famspec::cli {
namespace json = boost::json;

int list_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err) {
    const SearchPath search = context.search_path();
    const std::vector<PluginRecord> records = inspect_plugins(context.load_options(err));
    const bool ok = std::all_of(records.begin(), records.end(), [](const auto& r) { return r.ok(); });
    context.note_plugins(err, records);
    if (context.json) {
        json::array plugins;
        for (const auto& record : records) plugins.push_back(record_json(record, record.ok() ? "ok" : "error"));
        print_json(out, json::object{{"search_path", search_json(search)}, {"plugins", std::move(plugins)}});
    } else {
        print_search(context, err, search);
        std::vector<std::string> statuses;
        for (const auto& r : records) statuses.emplace_back(r.ok() ? "ok" : "error");
        print_records(out, records, statuses, long_list ? nullptr : &search);
    }
    return ok ? kExitOk : kExitFailed;
}

namespace {

std::string described_default(const Parameter& parameter) {
    switch (parameter.default_value.kind()) {
        case Default::Kind::required:
            return parameter.name;
        case Default::Kind::literal:
            return parameter.name + "=" + to_python(parameter.default_value.literal_value());
        case Default::Kind::expression:
            return parameter.name + "=" + parameter.default_value.expression_source();
    }
    return parameter.name;
}

}  // namespace

std::string describe(const Parameter& parameter) {
    std::string text = described_default(parameter);
    if (parameter.allowed.empty()) return text;
    std::vector<std::string> values;
    for (const PyLiteral& value : parameter.allowed) values.push_back(to_python(value));
    return text + " (Literal[" + join(values, ", ") + "])";
}

int unknown_family(const Context& context, const Registry& registry, const std::string& name, std::ostream& out,
                   std::ostream& err) {
    return context.fail(kExitFailed,
                        {"unknown_family",
                         unknown_family_message(registry, name) + "; `famspec list` shows the loaded families",
                         {},
                         {},
                         {}},
                        out, err);
}

// ---- show ---------------------------------------------------------------------------------------

namespace {

std::string describe(const Argument& argument) {
    switch (argument.binding) {
        case ArgumentBinding::parameter:
            return argument.name + "=<" + argument.value + ">";
        case ArgumentBinding::literal:
            return argument.name + "=" + argument.value;
        case ArgumentBinding::interface:
            return argument.name + "=" + argument.value + " (rendered)";
    }
    return argument.name;
}

std::string declaration_of(const ReplacementFactory& factory) {
    const std::optional<Construction>& c = factory.construction;
    if (!c) return "runtime-only: " + std::string(factory.runtime_only_reason);
    std::vector<std::string> arguments;
    if (c->mode == ConstructionMode::wrap_source)
        arguments.emplace_back(c->module_positional ? "module" : "module=module");
    for (const Argument& a : c->arguments) arguments.push_back(describe(a));
    return c->component + "(" + join(arguments, ", ") + ") from " + c->import_module + " [" +
           std::string(name_of(c->mode)) + "]";
}

std::string fingerprint_text(const MoeStructure& fp) {
    return "(" + std::string(name_of(fp.router)) + ", " + std::string(name_of(fp.shared_experts)) + ", " +
           std::string(name_of(fp.expert_storage)) + ")";
}

}  // namespace

namespace {

// What `show` reports about one family, gathered from the registry.
struct FamilyView {
    const RegisteredFamily& family;
    std::string model_type;
    std::vector<const Registered<ReplacementFactory>*> factories;  // by target
    std::vector<const Registered<MoeArchetype>*> archetypes;       // in registration order
    std::vector<const Registered<CpWrapper>*> wrappers;            // by target
    std::vector<std::string> used_components;                      // sorted, each once
};

FamilyView view_of(const Registry& registry, const RegisteredFamily& family) {
    FamilyView view{family, std::string(family->model_type), {}, {}, {}, {}};
    for (const auto& f : registry.factories()) {
        if (f->family == view.model_type) view.factories.push_back(&f);
    }
    std::sort(view.factories.begin(), view.factories.end(),
              [](auto* a, auto* b) { return (*a)->target < (*b)->target; });
    for (const auto* f : view.factories) {
        const std::optional<Construction>& c = (*f)->construction;
        if (!c) continue;
        if (const auto* component = registry.find_component(c->import_module, c->component)) {
            view.used_components.push_back(defining_path(**component));
        } else {
            view.used_components.push_back(c->import_module + "." + c->component + " (not registered)");
        }
    }
    std::sort(view.used_components.begin(), view.used_components.end());
    view.used_components.erase(std::unique(view.used_components.begin(), view.used_components.end()),
                               view.used_components.end());
    for (const auto& w : registry.cp_wrappers()) {
        if (w->family == view.model_type) view.wrappers.push_back(&w);
    }
    std::sort(view.wrappers.begin(), view.wrappers.end(), [](auto* a, auto* b) { return (*a)->target < (*b)->target; });
    for (const auto& a : registry.archetypes()) {
        if (a->family == view.model_type) view.archetypes.push_back(&a);
    }
    return view;
}

json::object archetype_json(const Registered<MoeArchetype>& registered) {
    const MoeArchetype& a = *registered;
    const MoeStructure& fp = a.fingerprint;
    json::array options;
    for (const auto& o : a.options) options.emplace_back(cli::describe(o));
    return {{"fingerprint", json::array{json::value(name_of(fp.router)), json::value(name_of(fp.shared_experts)),
                                        json::value(name_of(fp.expert_storage))}},
            {"kind", std::string(name_of(a.kind))},
            {"target_class", std::string(a.target_class)},
            {"router_kind", std::string(name_of(a.router_kind))},
            {"shared", std::string(name_of(a.shared))},
            {"strip_boundary_subpatterns", string_array(a.strip_boundary_subpatterns)},
            {"compute_factory", std::string(a.compute_factory)},
            {"options", std::move(options)}};
}

void print_family_json(std::ostream& out, const FamilyView& view) {
    const RegisteredFamily& family = view.family;
    json::array factory_list;
    for (const auto* f : view.factories) {
        json::object entry{{"target", std::string((*f)->target)}, {"declares", declaration_of(**f)}};
        entry["runtime_only"] = !(*f)->construction;
        factory_list.push_back(std::move(entry));
    }
    json::array archetype_list;
    for (const auto* a : view.archetypes) archetype_list.push_back(archetype_json(*a));
    json::array wrapper_list;
    json::object wrapper_options;
    for (const auto* w : view.wrappers) {
        wrapper_list.emplace_back(std::string((*w)->target));
        json::array options;
        for (const auto& o : (*w)->options) options.emplace_back(cli::describe(o));
        wrapper_options[std::string((*w)->target)] = std::move(options);
    }
    print_json(out, json::object{{"model_type", view.model_type},
                                 {"architecture", std::string(family->architecture)},
                                 {"aliases", string_array(family->aliases)},
                                 {"directory_aliases", string_array(family->directory_aliases)},
                                 {"spellings", string_array(family.spellings)},
                                 {"providers", string_array(family.provider_modules)},
                                 {"plugin", family.plugin},
                                 {"path", family.path},
                                 {"factories", std::move(factory_list)},
                                 {"archetypes", std::move(archetype_list)},
                                 {"cp_wrappers", std::move(wrapper_list)},
                                 {"cp_wrapper_options", std::move(wrapper_options)},
                                 {"compute_functions", string_array(family->compute_functions)},
                                 {"components", string_array(view.used_components)}});
}

void print_section(std::ostream& out, const std::string& title, const std::vector<std::string>& lines) {
    out << "  " << title << ":\n";
    if (lines.empty()) out << "    (none)\n";
    for (const auto& line : lines) out << "    " << line << "\n";
}

std::string archetype_text(const Registered<MoeArchetype>& registered) {
    const MoeArchetype& a = *registered;
    std::vector<std::string> options;
    for (const auto& o : a.options) options.push_back(cli::describe(o));
    const auto& strip = a.strip_boundary_subpatterns;
    return fingerprint_text(a.fingerprint) + " -> " + std::string(name_of(a.kind)) + " " + std::string(a.target_class) +
           " (router_kind " + std::string(name_of(a.router_kind)) + ", shared " + std::string(name_of(a.shared)) +
           ", strip [" + join({strip.begin(), strip.end()}, ", ") + "])\n      local_compute_fn " +
           std::string(a.compute_factory) + (options.empty() ? "" : " (options " + join(options, ", ") + ")");
}

void print_family_text(std::ostream& out, const FamilyView& view) {
    const RegisteredFamily& family = view.family;
    const auto& aliases = family->aliases;
    const auto& directories = family->directory_aliases;
    const auto& computes = family->compute_functions;
    out << "family " << view.model_type << "\n";
    out << "  architecture:      " << family->architecture << "\n";
    out << "  plugin:            " << family.plugin << " (" << family.path << ")\n";
    out << "  spellings:         " << join(family.spellings, ", ") << "\n";
    if (!aliases.empty()) out << "  aliases:           " << join({aliases.begin(), aliases.end()}, ", ") << "\n";
    if (!directories.empty()) {
        out << "  directory aliases: " << join({directories.begin(), directories.end()}, ", ") << "\n";
    }
    print_section(out, "providers", family.provider_modules);
    std::vector<std::string> factories;
    for (const auto* f : view.factories)
        factories.push_back(std::string((*f)->target) + "\n      -> " + declaration_of(**f));
    print_section(out, "factories", factories);
    std::vector<std::string> archetypes;
    for (const auto* a : view.archetypes) archetypes.push_back(archetype_text(*a));
    print_section(out, "archetypes", archetypes);
    std::vector<std::string> wrappers;
    for (const auto* w : view.wrappers) {
        std::vector<std::string> options;
        for (const auto& o : (*w)->options) options.push_back(cli::describe(o));
        wrappers.push_back(std::string((*w)->target) +
                           (options.empty() ? "" : "\n      options " + join(options, ", ")));
    }
    print_section(out, "cp wrappers", wrappers);
    if (!computes.empty()) print_section(out, "compute functions (not archetypes)", {computes.begin(), computes.end()});
    print_section(out, "components", view.used_components);
}

}  // namespace

int show_family(const Context& context, const std::string& name, std::ostream& out, std::ostream& err) {
    const auto registry = context.load(err);
    const RegisteredFamily* family = registry->find_family(name);
    if (family == nullptr) return unknown_family(context, *registry, name, out, err);
    const FamilyView view = view_of(*registry, *family);
    if (context.json)
        print_family_json(out, view);
    else
        print_family_text(out, view);
    return kExitOk;
}

}  // namespace famspec::cli
