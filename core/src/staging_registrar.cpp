#include "staging_registrar.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "dotted_path.hpp"

namespace famspec::detail {
namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

template <class Items, class Key>
const auto* find_staged(const Items& items, const Key& key) {
    const auto it = std::find_if(items.begin(), items.end(), key);
    return it == items.end() ? nullptr : &*it;
}

}  // namespace

const RegisteredFamily* StagingRegistrar::family_named(std::string_view model_type) const {
    return find_staged(families, [&](const auto& f) { return f->model_type() == model_type; });
}

bool StagingRegistrar::check_family_target(std::string_view what, std::string_view target, std::string_view family,
                                           std::string_view where, bool is_module) {
    const RegisteredFamily* owner = family_named(family);
    if (owner == nullptr) {
        fail(std::string(what) + " " + quoted(target) + " (" + std::string(where) + ") names family " + quoted(family) +
             ", which this plugin does not register");
        return false;
    }
    // hyper_parallel.models.<directory>.adapter.<...>.<name>: the directory must name the family,
    // or a target could never be resolved from its path alone.
    // A module holds declarations: it is checked as the path of one of them.
    const std::optional<std::string> directory =
        declaration_family_directory(is_module ? std::string(target) + ".name" : std::string(target));
    if (!directory) {
        fail(std::string(what) + " " + quoted(target) + " (" + std::string(where) + "): expected a path " +
             (is_module ? "hyper_parallel.models.<family>.adapter.<module>"
                        : "hyper_parallel.models.<family>.adapter.<module>.<name>"));
        return false;
    }
    const std::string directory_key = normalize_family_key(*directory);
    const auto names = [&](const std::vector<std::string>& keys) {
        return std::find(keys.begin(), keys.end(), directory_key) != keys.end();
    };
    if (!names(owner->spellings) && !names(owner->directory_keys)) {
        fail(std::string(what) + " " + quoted(target) + " (" + std::string(where) + "): directory " +
             quoted(*directory) + " does not name family " + quoted(family) +
             "; declare it with directory_alias() if the family lives there");
        return false;
    }
    return true;
}

void StagingRegistrar::check_parameters(std::string_view what, std::span<const Parameter> parameters,
                                        std::string_view where) {
    std::set<std::string> seen;
    for (const Parameter& parameter : parameters) {
        if (parameter.name.empty()) fail(std::string(what) + " (" + std::string(where) + ") has an unnamed parameter");
        if (!seen.insert(parameter.name).second) {
            fail(std::string(what) + " (" + std::string(where) + ") declares parameter " + quoted(parameter.name) +
                 " twice");
        }
    }
}

void StagingRegistrar::add_family(std::unique_ptr<const FamilyAdapter> family, std::string_view where) {
    if (!family || family->model_type().empty() || family->architecture().empty()) {
        fail("a family (" + std::string(where) + ") has an empty model_type or architecture");
        return;
    }
    RegisteredFamily staged{stage(std::move(family), where), {}, {}, {}};
    staged.spellings = family_spellings(staged->model_type(), staged->architecture(), staged->aliases());
    staged.directory_keys = directory_keys(staged->directory_aliases());
    for (const auto& other : families) {
        if (other->model_type() == staged->model_type()) {
            fail("family " + quoted(staged->model_type()) + " registered twice (" + other.where + " and " +
                 std::string(where) + ")");
            return;
        }
        // Spellings and directory aliases are separate key spaces: each must be unique in its own,
        // except that a family's own name outranks another's architecture or alias (qwen3_5_text's
        // Qwen3_5ForCausalLM normalises to qwen3_5's name, and answers qwen3_5, as upstream).
        const std::string name = normalize_family_key(staged->model_type());
        const std::string other_name = normalize_family_key(other->model_type());
        for (const auto& [mine, theirs, kind] :
             {std::tuple{&staged.spellings, &other.spellings, "spelling "},
              std::tuple{&staged.directory_keys, &other.directory_keys, "directory alias "}}) {
            for (const auto& key : *mine) {
                const bool outranked = mine == &staged.spellings && ((key == name) != (key == other_name));
                if (!outranked && std::find(theirs->begin(), theirs->end(), key) != theirs->end()) {
                    fail(kind + quoted(key) + " names both family " + quoted(other->model_type()) + " (" + other.where +
                         ") and " + quoted(staged->model_type()) + " (" + std::string(where) + ")");
                    return;
                }
            }
        }
    }
    families.push_back(std::move(staged));
}

void StagingRegistrar::add_provider_module(std::string_view family, std::string_view module, std::string_view where) {
    const std::string what = "provider module " + quoted(module);
    if (!check_family_target("provider module", module, family, where, true)) return;
    auto owner =
        std::find_if(families.begin(), families.end(), [&](const auto& f) { return f->model_type() == family; });
    auto& providers = owner->provider_modules;
    if (std::find(providers.begin(), providers.end(), module) != providers.end()) {
        return fail(what + " declared twice for family " + quoted(family) + " (" + std::string(where) + ")");
    }
    if (std::any_of(factories.begin(), factories.end(), [&](const auto& f) { return f->family() == family; })) {
        return fail(what + " (" + std::string(where) + ") is declared after a factory of family " + quoted(family) +
                    ": declare the provider modules first");
    }
    providers.emplace_back(module);
}

bool StagingRegistrar::check_provider(std::string_view what, const ReplacementFactory& factory,
                                      std::string_view where) {
    const RegisteredFamily* family = family_named(factory.family());
    const std::string_view target = factory.target();
    const std::string_view home = target.substr(0, target.rfind('.'));
    const std::string_view name = target.substr(target.rfind('.') + 1);
    const auto& providers = family->provider_modules;
    if (!providers.empty() && std::find(providers.begin(), providers.end(), home) == providers.end()) {
        std::string declared;
        for (const auto& p : providers) declared += (declared.empty() ? "" : ", ") + p;
        fail(std::string(what) + " (" + std::string(where) + ") is not in a provider module of family " +
             quoted(factory.family()) + " (" + declared + ")");
        return false;
    }
    // Under every provider module the family's factories are told apart by name alone.
    if (const auto* other = find_staged(factories, [&](const auto& f) {
            const std::string_view t = f->target();
            return f->family() == factory.family() && t.substr(t.rfind('.') + 1) == name;
        })) {
        fail(std::string(what) + " and " + quoted(other->object->target()) + " share the name " + quoted(name) +
             " in family " + quoted(factory.family()) + " (" + other->where + " and " + std::string(where) +
             "): a factory resolves under every provider module, so declare it once");
        return false;
    }
    return true;
}

void StagingRegistrar::add_factory(std::unique_ptr<const ReplacementFactory> factory, std::string_view where) {
    if (!factory) return fail("a null factory was registered (" + std::string(where) + ")");
    const std::string what = "factory " + quoted(factory->target());
    if (const auto* other = find_staged(factories, [&](const auto& f) { return f->target() == factory->target(); })) {
        return fail(what + " registered twice (" + other->where + " and " + std::string(where) + ")");
    }
    if (!check_family_target("factory", factory->target(), factory->family(), where)) return;
    if (!check_provider(what, *factory, where)) return;
    check_parameters(what, factory->parameters(), where);
    for (const char* runtime : {"module", "module_fqn", "context"}) {
        const auto params = factory->parameters();
        if (std::none_of(params.begin(), params.end(), [&](const auto& p) { return p.name == runtime; })) {
            fail(what + " (" + std::string(where) + ") must take '" + runtime +
                 "': every replacement factory receives module, module_fqn and context");
        }
    }
    if (const Construction* construction = factory->construction()) {
        if (construction->component.empty() || construction->import_module.empty()) {
            fail(what + " (" + std::string(where) + ") constructs a component with no name or import module");
        }
        std::set<std::string> keywords;
        const auto* family = family_named(factory->family());
        for (const Argument& argument : construction->arguments) {
            if (argument.name.empty() || argument.name == "module" || !keywords.insert(argument.name).second) {
                fail(what + " (" + std::string(where) + ") passes keyword " + quoted(argument.name) +
                     " more than once, unnamed, or as 'module'");
            }
            const auto params = factory->parameters();
            if (argument.binding == ArgumentBinding::parameter &&
                std::none_of(params.begin(), params.end(), [&](const auto& p) { return p.name == argument.value; })) {
                fail(what + " (" + std::string(where) + ") binds " + quoted(argument.name) + " to parameter " +
                     quoted(argument.value) + ", which the factory does not take");
            }
            if (argument.binding == ArgumentBinding::interface && family != nullptr) {
                const auto blocks = (*family)->interface_blocks();
                const bool defined = std::any_of(blocks.begin(), blocks.end(), [&](const SourceBlock& b) {
                    return std::find(b.defines.begin(), b.defines.end(), argument.value) != b.defines.end();
                });
                if (!defined) {
                    fail(what + " (" + std::string(where) + ") hands over " + quoted(argument.value) +
                         ", which family " + quoted(factory->family()) + " does not declare as an interface");
                }
            }
        }
    } else if (factory->runtime_only_reason().empty()) {
        fail(what + " (" + std::string(where) + ") is runtime-only but gives no reason");
    }
    factories.push_back(stage(std::move(factory), where));
}

void StagingRegistrar::add_archetype(std::unique_ptr<const MoeArchetype> archetype, std::string_view where) {
    if (!archetype) return fail("a null archetype was registered (" + std::string(where) + ")");
    const std::string what = "archetype " + quoted(archetype->compute_factory());
    const MoeFingerprint& fp = archetype->fingerprint();
    if (fp.router.empty() || fp.shared_experts.empty() || fp.expert_storage.empty() ||
        archetype->compute_factory().empty() || archetype->kind().empty() || archetype->target_class().empty() ||
        archetype->router_kind().empty() || archetype->shared().empty()) {
        return fail(what + " (" + std::string(where) +
                    ") needs a full fingerprint, kind, target_class, router_kind, shared and compute factory");
    }
    if (family_named(archetype->family()) == nullptr) {
        return fail(what + " (" + std::string(where) + ") names family " + quoted(archetype->family()) +
                    ", which this plugin does not register");
    }
    for (const auto& other : archetypes) {
        if (other->fingerprint() == fp || other->compute_factory() == archetype->compute_factory()) {
            return fail(what + " duplicates the fingerprint or compute factory of " + quoted(other->compute_factory()) +
                        " (" + other.where + " and " + std::string(where) + ")");
        }
    }
    check_parameters(what, archetype->options(), where);
    archetypes.push_back(stage(std::move(archetype), where));
}

void StagingRegistrar::add_cp_wrapper(std::unique_ptr<const CpWrapper> wrapper, std::string_view where) {
    if (!wrapper) return fail("a null CP wrapper was registered (" + std::string(where) + ")");
    const std::string what = "CP wrapper " + quoted(wrapper->target());
    if (const auto* other = find_staged(cp_wrappers, [&](const auto& w) { return w->target() == wrapper->target(); })) {
        return fail(what + " registered twice (" + other->where + " and " + std::string(where) + ")");
    }
    if (!check_family_target("CP wrapper", wrapper->target(), wrapper->family(), where)) return;
    check_parameters(what, wrapper->options(), where);
    cp_wrappers.push_back(stage(std::move(wrapper), where));
}

void StagingRegistrar::add_component(std::unique_ptr<const Component> component, std::string_view where) {
    if (!component) return fail("a null component was registered (" + std::string(where) + ")");
    const std::string what = "component " + quoted(component->name());
    if (component->name().empty() || component->import_module().empty() || component->defining_module().empty()) {
        return fail(what + " (" + std::string(where) + ") needs a name, an import module and a defining module");
    }
    if (const auto* other = find_staged(components, [&](const auto& c) {
            return c->name() == component->name() && c->defining_module() == component->defining_module();
        })) {
        return fail(what + " registered twice (" + other->where + " and " + std::string(where) + ")");
    }
    check_parameters(what, component->parameters(), where);
    const auto source = component->source();
    if (!source.empty() && std::none_of(source.begin(), source.end(), [&](const SourceBlock& block) {
            return std::find(block.defines.begin(), block.defines.end(), component->name()) != block.defines.end();
        })) {
        fail(what + " (" + std::string(where) + ") has source blocks but none defines the class");
    }
    components.push_back(stage(std::move(component), where));
}

PluginManifest StagingRegistrar::manifest(const PluginDescriptor& descriptor) const {
    PluginManifest manifest;
    manifest.name = descriptor.name != nullptr ? descriptor.name : "";
    manifest.version = descriptor.version != nullptr ? descriptor.version : "";
    manifest.description = descriptor.description != nullptr ? descriptor.description : "";
    manifest.abi_major = descriptor.abi_major;
    manifest.abi_minor = descriptor.abi_minor;
    manifest.descriptor_size = descriptor.descriptor_size;
    manifest.fingerprint = descriptor.fingerprint != nullptr ? descriptor.fingerprint : "";
    for (const auto& family : families) {
        const auto aliases = family->aliases();
        const auto directories = family->directory_aliases();
        manifest.families.push_back({std::string(family->model_type()),
                                     std::string(family->architecture()),
                                     {aliases.begin(), aliases.end()},
                                     {directories.begin(), directories.end()}});
    }
    for (const auto& factory : factories) manifest.factories.emplace_back(factory->target());
    for (const auto& archetype : archetypes) {
        const MoeFingerprint& fp = archetype->fingerprint();
        manifest.archetypes.push_back(
            {std::string(archetype->compute_factory()), {fp.router, fp.shared_experts, fp.expert_storage}});
    }
    for (const auto& wrapper : cp_wrappers) manifest.cp_wrappers.emplace_back(wrapper->target());
    for (const auto& component : components) {
        manifest.components.push_back(std::string(component->defining_module()) + "." + std::string(component->name()));
    }
    return normalized(std::move(manifest));
}

}  // namespace famspec::detail
