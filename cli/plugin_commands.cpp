#include "plugin_commands.hpp"

#include <boost/json.hpp>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/resolver.hpp"
#include "plugin_report.hpp"
#include "suggest.hpp"

namespace famspec::cli {
namespace json = boost::json;

int list_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err) {
    const SearchPath search = context.search_path();
    const std::vector<PluginRecord> records = inspect_plugins(load_options_for(search));
    const bool ok = std::all_of(records.begin(), records.end(), [](const auto& r) { return r.ok(); });
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

std::string describe(const Parameter& parameter) {
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

int unknown_family(const Context& context, const Registry& registry, const std::string& name, std::ostream& out,
                   std::ostream& err) {
    std::vector<std::string> known;
    for (const RegisteredFamily& family : registry.families()) {
        known.emplace_back(family->model_type());
        known.emplace_back(family->architecture());
        for (const auto& alias : family->aliases()) known.emplace_back(alias);
    }
    return context.fail(
        kExitFailed,
        {"unknown_family",
         "unknown family '" + name + "' (tried " + join(registry.find_family(name).spellings_tried, ", ") + ")" +
             did_you_mean(name, known) + "; `famspec list` shows the loaded families",
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
    const Construction* c = factory.construction();
    if (c == nullptr) return "runtime-only: " + std::string(factory.runtime_only_reason());
    std::vector<std::string> arguments;
    if (c->mode == ConstructionMode::wrap_source)
        arguments.emplace_back(c->module_positional ? "module" : "module=module");
    for (const Argument& a : c->arguments) arguments.push_back(describe(a));
    const char* mode = c->mode == ConstructionMode::wrap_source ? "wrap_source" : "name";
    return c->component + "(" + join(arguments, ", ") + ") from " + c->import_module + " [" + mode + "]";
}

std::string fingerprint_text(const MoeFingerprint& fp) {
    return "(" + fp.router + ", " + fp.shared_experts + ", " + fp.expert_storage + ")";
}

}  // namespace

int show_family(const Context& context, const std::string& name, std::ostream& out, std::ostream& err) {
    const auto registry = context.load(err);
    const FamilyLookup lookup = registry->find_family(name);
    if (lookup.family == nullptr) return unknown_family(context, *registry, name, out, err);
    const RegisteredFamily& family = *lookup.family;
    const std::string model_type(family->model_type());
    std::vector<const Registered<ReplacementFactory>*> factories;
    for (const auto& f : registry->factories()) {
        if (f->family() == model_type) factories.push_back(&f);
    }
    std::sort(factories.begin(), factories.end(), [](auto* a, auto* b) { return (*a)->target() < (*b)->target(); });
    std::vector<std::string> used_components;
    for (const auto* f : factories) {
        if (const Construction* c = (*f)->construction()) {
            if (const auto* component = registry->find_component(c->import_module, c->component)) {
                used_components.push_back(std::string((*component)->defining_module()) + "." + c->component);
            } else {
                used_components.push_back(c->import_module + "." + c->component + " (not registered)");
            }
        }
    }
    std::sort(used_components.begin(), used_components.end());
    used_components.erase(std::unique(used_components.begin(), used_components.end()), used_components.end());

    std::vector<std::string> wrappers;
    for (const auto& w : registry->cp_wrappers()) {
        if (w->family() == model_type) wrappers.emplace_back(w->target());
    }
    std::sort(wrappers.begin(), wrappers.end());
    std::vector<const Registered<MoeArchetype>*> archetypes;
    for (const auto& a : registry->archetypes()) {
        if (a->family() == model_type) archetypes.push_back(&a);
    }
    const auto aliases = family->aliases();
    const auto directories = family->directory_aliases();
    const auto computes = family->compute_functions();

    if (context.json) {
        json::array factory_list;
        for (const auto* f : factories) {
            json::object entry{{"target", std::string((*f)->target())}, {"declares", declaration_of(**f)}};
            entry["runtime_only"] = (*f)->construction() == nullptr;
            factory_list.push_back(std::move(entry));
        }
        json::array archetype_list;
        for (const auto* a : archetypes) {
            const MoeFingerprint& fp = (*a)->fingerprint();
            json::array options;
            for (const auto& o : (*a)->options()) options.emplace_back(describe(o));
            archetype_list.push_back(json::object{
                {"fingerprint",
                 json::array{json::value(fp.router), json::value(fp.shared_experts), json::value(fp.expert_storage)}},
                {"kind", std::string((*a)->kind())},
                {"target_class", std::string((*a)->target_class())},
                {"router_kind", std::string((*a)->router_kind())},
                {"shared", std::string((*a)->shared())},
                {"strip_boundary_subpatterns", string_array((*a)->strip_boundary_subpatterns())},
                {"compute_factory", std::string((*a)->compute_factory())},
                {"options", std::move(options)}});
        }
        print_json(out, json::object{{"model_type", model_type},
                                     {"architecture", std::string(family->architecture())},
                                     {"aliases", string_array(aliases)},
                                     {"directory_aliases", string_array(directories)},
                                     {"spellings", string_array(family.spellings)},
                                     {"plugin", family.plugin},
                                     {"path", family.path},
                                     {"factories", std::move(factory_list)},
                                     {"archetypes", std::move(archetype_list)},
                                     {"cp_wrappers", string_array(wrappers)},
                                     {"compute_functions", string_array(computes)},
                                     {"components", string_array(used_components)}});
        return kExitOk;
    }
    out << "family " << model_type << "\n";
    out << "  architecture:      " << family->architecture() << "\n";
    out << "  plugin:            " << family.plugin << " (" << family.path << ")\n";
    out << "  spellings:         " << join(family.spellings, ", ") << "\n";
    if (!aliases.empty()) out << "  aliases:           " << join({aliases.begin(), aliases.end()}, ", ") << "\n";
    if (!directories.empty()) {
        out << "  directory aliases: " << join({directories.begin(), directories.end()}, ", ") << "\n";
    }
    out << "  factories:\n";
    if (factories.empty()) out << "    (none)\n";
    for (const auto* f : factories) out << "    " << (*f)->target() << "\n      -> " << declaration_of(**f) << "\n";
    out << "  archetypes:\n";
    if (archetypes.empty()) out << "    (none)\n";
    for (const auto* a : archetypes) {
        std::vector<std::string> options;
        for (const auto& o : (*a)->options()) options.push_back(describe(o));
        const auto strip = (*a)->strip_boundary_subpatterns();
        out << "    " << fingerprint_text((*a)->fingerprint()) << " -> " << (*a)->kind() << " " << (*a)->target_class()
            << " (router_kind " << (*a)->router_kind() << ", shared " << (*a)->shared() << ", strip ["
            << join({strip.begin(), strip.end()}, ", ") << "])\n      local_compute_fn " << (*a)->compute_factory()
            << (options.empty() ? "" : " (options " + join(options, ", ") + ")") << "\n";
    }
    out << "  cp wrappers:\n";
    if (wrappers.empty()) out << "    (none)\n";
    for (const auto& w : wrappers) out << "    " << w << "\n";
    if (!computes.empty()) {
        out << "  compute functions (not archetypes):\n";
        for (const auto& c : computes) out << "    " << c << "\n";
    }
    out << "  components:\n";
    if (used_components.empty()) out << "    (none)\n";
    for (const auto& c : used_components) out << "    " << c << "\n";
    return kExitOk;
}

}  // namespace famspec::cli
