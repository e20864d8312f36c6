#include "famspec/registry_description.hpp"

#include <algorithm>
#include <boost/json.hpp>

#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/python_text.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"

namespace famspec {
namespace json = boost::json;
namespace {

json::array parameters_json(std::span<const Parameter> parameters) {
    json::array out;
    for (const Parameter& p : parameters) {
        json::object entry{{"name", p.name}, {"kind", name_of(p.kind)}};
        if (p.default_value.kind() == Default::Kind::literal) {
            entry["default"] = to_python(p.default_value.literal_value());
        } else if (p.default_value.kind() == Default::Kind::expression) {
            entry["default_expression"] = p.default_value.expression_source();
        }
        if (!p.allowed.empty()) {
            json::array allowed;
            for (const PyLiteral& value : p.allowed) allowed.push_back(json::value(to_python(value)));
            entry["allowed"] = std::move(allowed);
        }
        out.push_back(std::move(entry));
    }
    return out;
}

json::value construction_json(const std::optional<Construction>& c) {
    if (!c) return nullptr;
    json::array arguments;
    for (const Argument& a : c->arguments) {
        arguments.push_back(json::object{{"name", a.name}, {"binding", name_of(a.binding)}, {"value", a.value}});
    }
    const bool wraps = c->mode == ConstructionMode::wrap_source;
    return json::object{{"component", c->component},
                        {"import_module", c->import_module},
                        {"mode", name_of(c->mode)},
                        {"module_passed", !wraps ? "none" : (c->module_positional ? "positional" : "keyword")},
                        {"arguments", std::move(arguments)}};
}

template <class T>
json::object sited(const Registered<T>& registered, json::object entry) {
    entry["plugin"] = registered.plugin;
    entry["where"] = registered.where;
    return entry;
}

template <class Item, class Key>
std::vector<const Item*> of_family(std::span<const Item> items, std::string_view model_type, Key key) {
    std::vector<const Item*> out;
    for (const auto& item : items) {
        if (item->family == model_type) out.push_back(&item);
    }
    std::sort(out.begin(), out.end(), [&](auto* a, auto* b) { return key(**a) < key(**b); });
    return out;
}

json::object factory_json(const Registered<ReplacementFactory>& f) {
    json::object entry{{"target", f->target},
                       {"parameters", parameters_json(f->parameters)},
                       {"runtime_only", !f->construction},
                       {"construction", construction_json(f->construction)}};
    if (!f->construction) entry["runtime_only_reason"] = f->runtime_only_reason;
    return sited(f, std::move(entry));
}

json::object archetype_json(const Registered<MoeArchetype>& a) {
    const MoeStructure& fp = a->fingerprint;
    return sited(a,
                 {{"compute_factory", a->compute_factory},
                  {"fingerprint", json::array{json::value(name_of(fp.router)), json::value(name_of(fp.shared_experts)),
                                              json::value(name_of(fp.expert_storage))}},
                  {"kind", name_of(a->kind)},
                  {"target_class", a->target_class},
                  {"router_kind", name_of(a->router_kind)},
                  {"shared", name_of(a->shared)},
                  {"strip_boundary_subpatterns", string_array(a->strip_boundary_subpatterns)},
                  {"options", parameters_json(a->options)}});
}

// The CP wrappers of one family, or the framework's for an empty model_type.
json::array wrappers_json(const Registry& registry, std::string_view model_type) {
    json::array wrappers;
    for (const auto* w : of_family(registry.cp_wrappers(), model_type, [](const auto& x) { return x.target; })) {
        wrappers.push_back(sited(*w, {{"target", (*w)->target}, {"options", parameters_json((*w)->options)}}));
    }
    return wrappers;
}

json::array archetypes_json(const Registry& registry, std::string_view model_type) {
    json::array archetypes;
    for (const auto* a :
         of_family(registry.archetypes(), model_type, [](const auto& x) { return x.compute_factory; })) {
        archetypes.push_back(archetype_json(*a));
    }
    return archetypes;
}

json::object family_json(const Registry& registry, const RegisteredFamily& family) {
    const std::string_view model_type = family->model_type;
    json::array factories;
    for (const auto* f : of_family(registry.factories(), model_type, [](const auto& x) { return x.target; })) {
        factories.push_back(factory_json(*f));
    }
    json::array wrappers = wrappers_json(registry, model_type);
    json::array archetypes = archetypes_json(registry, model_type);
    std::vector<std::string> computes(family->compute_functions.begin(), family->compute_functions.end());
    std::sort(computes.begin(), computes.end());
    return json::object{{"model_type", model_type},
                        {"architecture", family->architecture},
                        {"aliases", string_array(family->aliases)},
                        {"directory_aliases", string_array(family->directory_aliases)},
                        {"provider_modules", string_array(family.provider_modules)},
                        {"plugin", family.plugin},
                        {"where", family.where},
                        {"factories", std::move(factories)},
                        {"cp_wrappers", std::move(wrappers)},
                        {"borrowed_cp_wrappers", string_array(family.borrowed_cp_wrappers)},
                        {"compute_functions", string_array(computes)},
                        {"archetypes", std::move(archetypes)}};
}

json::object component_json(const Registered<Component>& c) {
    const auto& parameters = c->parameters;
    const bool takes_module =
        std::any_of(parameters.begin(), parameters.end(), [](const Parameter& p) { return p.name == "module"; });
    return sited(c, {{"name", c->name},
                     {"import_module", c->import_module},
                     {"defining_module", c->defining_module},
                     {"parameters", parameters_json(parameters)},
                     {"takes_module", takes_module}});
}

json::object plugin_json(const PluginRecord& record) {
    json::object entry{{"name", record.manifest ? record.manifest->name : ""},
                       {"version", record.manifest ? record.manifest->version : ""},
                       {"path", record.path},
                       {"status", record.ok() ? "ok" : "error"}};
    if (record.error) {
        entry["stage"] = name_of(record.error->stage);
        entry["message"] = record.error->message;
    }
    return entry;
}

}  // namespace

std::string describe_registry_json(const Registry& registry) {
    std::vector<const RegisteredFamily*> families;
    for (const auto& family : registry.families()) families.push_back(&family);
    std::sort(families.begin(), families.end(), [](auto* a, auto* b) { return (*a)->model_type < (*b)->model_type; });
    std::vector<const Registered<Component>*> components;
    for (const auto& component : registry.components()) components.push_back(&component);
    std::sort(components.begin(), components.end(), [](auto* a, auto* b) {
        return std::pair((*a)->defining_module, (*a)->name) < std::pair((*b)->defining_module, (*b)->name);
    });

    json::array plugin_list;
    for (const PluginRecord& record : registry.plugins()) plugin_list.push_back(plugin_json(record));
    json::array family_list;
    for (const auto* family : families) family_list.push_back(family_json(registry, *family));
    json::array component_list;
    for (const auto* component : components) component_list.push_back(component_json(*component));
    return canonical_json(json::object{{"format", 1},
                                       {"plugins", std::move(plugin_list)},
                                       {"families", std::move(family_list)},
                                       {"components", std::move(component_list)},
                                       {"archetypes", archetypes_json(registry, {})},
                                       {"cp_wrappers", wrappers_json(registry, {})}});
}

}  // namespace famspec
