#include "registry/staging_registrar.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "common/dotted_path.hpp"
#include "common/family_key_index.hpp"
#include "famspec/family_keys.hpp"
#include "famspec/names.hpp"

namespace famspec::detail {
namespace {

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// The index of `key` in `index`, or nullopt.
std::optional<std::size_t> indexed(const std::unordered_map<std::string, std::size_t>& index, const std::string& key) {
    const auto it = index.find(key);
    return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
}

// The words are typed in the rows and proved known by TableView::check(), so their names are the key.
std::string fingerprint_key(const MoeStructure& fp) {
    return std::string(name_of(fp.router)) + '\0' + std::string(name_of(fp.shared_experts)) + '\0' +
           std::string(name_of(fp.expert_storage));
}

std::string family_and_name(const ReplacementFactory& factory) {
    return factory.family + '\0' + std::string(split_last(factory.target).name);
}

std::string component_key(const Component& component) { return component.defining_module + '\0' + component.name; }

}  // namespace

const RegisteredFamily* StagingRegistrar::family_named(std::string_view model_type) const {
    const auto at = indexed(family_by_model_type_, std::string(model_type));
    return at ? &declared_.families[*at] : nullptr;
}

bool StagingRegistrar::check_family_target(std::string_view what, std::string_view target, std::string_view family,
                                           std::string_view where, bool is_module) {
    const RegisteredFamily* owner = family_named(family);
    if (owner == nullptr) {
        fail(std::string(what) + " " + single_quoted(target) + " (" + std::string(where) + ") names family " +
             single_quoted(family) + ", which this plugin does not register");
        return false;
    }
    // hyper_parallel.models.<directory>.adapter.<...>.<name>: the directory must name the family,
    // or a target could never be resolved from its path alone.
    // A module holds declarations: it is checked as the path of one of them.
    const std::optional<std::string> directory =
        declaration_family_directory(is_module ? std::string(target) + ".name" : std::string(target));
    if (!directory) {
        fail(std::string(what) + " " + single_quoted(target) + " (" + std::string(where) + "): expected a path " +
             (is_module ? "hyper_parallel.models.<family>.adapter.<module>"
                        : "hyper_parallel.models.<family>.adapter.<module>.<name>"));
        return false;
    }
    const std::string directory_key = normalize_family_key(*directory);
    const auto names = [&](const std::vector<std::string>& keys) {
        return std::find(keys.begin(), keys.end(), directory_key) != keys.end();
    };
    if (!names(owner->spellings) && !names(owner->directory_keys)) {
        fail(std::string(what) + " " + single_quoted(target) + " (" + std::string(where) + "): directory " +
             single_quoted(*directory) + " does not name family " + single_quoted(family) +
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
            fail(std::string(what) + " (" + std::string(where) + ") declares parameter " +
                 single_quoted(parameter.name) + " twice");
        }
        const Default& fallback = parameter.default_value;
        if (!parameter.allowed.empty() && fallback.kind() == Default::Kind::literal &&
            std::find(parameter.allowed.begin(), parameter.allowed.end(), fallback.literal_value()) ==
                parameter.allowed.end()) {
            fail(std::string(what) + " (" + std::string(where) + ") declares parameter " +
                 single_quoted(parameter.name) + " with a default that is not one of its allowed values");
        }
    }
}

void StagingRegistrar::add_family(FamilyAdapter family, std::string_view where) {
    if (family.model_type.empty() || family.architecture.empty()) {
        fail("a family (" + std::string(where) + ") has an empty model_type or architecture");
        return;
    }
    RegisteredFamily staged{stage(std::move(family), where), {}, {}, {}, {}};
    staged.spellings = detail::family_spellings(staged->model_type, staged->architecture, staged->aliases);
    staged.directory_keys = detail::directory_keys(staged->directory_aliases);
    if (const auto at = indexed(family_by_model_type_, std::string(staged->model_type))) {
        return fail("family " + single_quoted(staged->model_type) + " registered twice (" +
                    declared_.families[*at].where + " and " + std::string(where) + ")");
    }
    // Names, other spellings and directory aliases are key spaces of their own: two declared_.families may not
    // share a key within one. A family's own name outranks another's architecture or alias
    // (qwen3_5_text's Qwen3_5ForCausalLM normalises to qwen3_5's name and answers qwen3_5, as upstream).
    const std::string name = normalize_family_key(staged->model_type);
    const auto clash = [&](const Index& index, const std::string& key, const char* kind) {
        const auto at = indexed(index, key);
        if (!at) return false;
        const RegisteredFamily& other = declared_.families[*at];
        fail(kind + single_quoted(key) + " names both family " + single_quoted(other->model_type) + " (" + other.where +
             ") and " + single_quoted(staged->model_type) + " (" + std::string(where) + ")");
        return true;
    };
    for (const auto& key : staged.spellings) {
        if (clash(key == name ? family_by_name_ : family_by_spelling_, key, "spelling ")) return;
    }
    for (const auto& key : staged.directory_keys) {
        if (clash(family_by_directory_key_, key, "directory alias ")) return;
    }
    family_by_model_type_.emplace(staged->model_type, declared_.families.size());
    family_by_name_.emplace(name, declared_.families.size());
    for (const auto& key : staged.spellings) {
        if (key != name) family_by_spelling_.emplace(key, declared_.families.size());
    }
    for (const auto& key : staged.directory_keys) family_by_directory_key_.emplace(key, declared_.families.size());
    declared_.families.push_back(std::move(staged));
}

void StagingRegistrar::add_provider_module(std::string_view family, std::string_view module, std::string_view where) {
    const std::string what = "provider module " + single_quoted(module);
    if (!check_family_target("provider module", module, family, where, true)) return;
    auto& providers = declared_.families[*indexed(family_by_model_type_, std::string(family))].provider_modules;
    if (std::find(providers.begin(), providers.end(), module) != providers.end()) {
        return fail(what + " declared twice for family " + single_quoted(family) + " (" + std::string(where) + ")");
    }
    providers.emplace_back(module);
}

bool StagingRegistrar::check_provider(std::string_view what, const ReplacementFactory& factory,
                                      std::string_view where) {
    const RegisteredFamily* family = family_named(factory.family);
    const std::string_view target = factory.target;
    const auto [home, name] = split_last(target);
    const auto& providers = family->provider_modules;
    if (!providers.empty() && std::find(providers.begin(), providers.end(), home) == providers.end()) {
        std::string declared;
        for (const auto& p : providers) declared += (declared.empty() ? "" : ", ") + p;
        fail(std::string(what) + " (" + std::string(where) + ") is not in a provider module of family " +
             single_quoted(factory.family) + " (" + declared + ")");
        return false;
    }
    // Under every provider module the family's declared_.factories are told apart by name alone.
    if (const auto at = indexed(factory_by_family_and_name_, family_and_name(factory))) {
        const auto& other = declared_.factories[*at];
        fail(std::string(what) + " and " + single_quoted(other->target) + " share the name " + single_quoted(name) +
             " in family " + single_quoted(factory.family) + " (" + other.where + " and " + std::string(where) +
             "): a factory resolves under every provider module, so declare it once");
        return false;
    }
    return true;
}

void StagingRegistrar::add_factory(ReplacementFactory factory, std::string_view where) {
    const std::string what = "factory " + single_quoted(factory.target);
    const std::string target(factory.target);
    if (const auto at = indexed(factory_by_target_, target)) {
        return fail(what + " registered twice (" + declared_.factories[*at].where + " and " + std::string(where) + ")");
    }
    if (!check_family_target("factory", factory.target, factory.family, where)) return;
    if (!check_provider(what, factory, where)) return;
    check_parameters(what, factory.parameters, where);
    for (const char* runtime : {"module", "module_fqn", "context"}) {
        const auto& params = factory.parameters;
        if (std::none_of(params.begin(), params.end(), [&](const auto& p) { return p.name == runtime; })) {
            fail(what + " (" + std::string(where) + ") must take '" + runtime +
                 "': every replacement factory receives module, module_fqn and context");
        }
    }
    if (const std::optional<Construction>& construction = factory.construction) {
        if (construction->component.empty() || construction->import_module.empty()) {
            fail(what + " (" + std::string(where) + ") constructs a component with no name or import module");
        }
        std::set<std::string> keywords;
        const auto* family = family_named(factory.family);
        for (const Argument& argument : construction->arguments) {
            if (argument.name.empty() || argument.name == "module" || !keywords.insert(argument.name).second) {
                fail(what + " (" + std::string(where) + ") passes keyword " + single_quoted(argument.name) +
                     " more than once, unnamed, or as 'module'");
            }
            const auto& params = factory.parameters;
            if (argument.binding == ArgumentBinding::parameter &&
                std::none_of(params.begin(), params.end(), [&](const auto& p) { return p.name == argument.value; })) {
                fail(what + " (" + std::string(where) + ") binds " + single_quoted(argument.name) + " to parameter " +
                     single_quoted(argument.value) + ", which the factory does not take");
            }
            if (argument.binding == ArgumentBinding::interface && family != nullptr) {
                const auto& blocks = (*family)->interface_blocks;
                const bool defined = std::any_of(blocks.begin(), blocks.end(), [&](const SourceBlock& b) {
                    return std::find(b.defines.begin(), b.defines.end(), argument.value) != b.defines.end();
                });
                if (!defined) {
                    fail(what + " (" + std::string(where) + ") hands over " + single_quoted(argument.value) +
                         ", which family " + single_quoted(factory.family) + " does not declare as an interface");
                }
            }
        }
    } else if (factory.runtime_only_reason.empty()) {
        fail(what + " (" + std::string(where) + ") is runtime-only but gives no reason");
    }
    factory_by_target_.emplace(target, declared_.factories.size());
    factory_by_family_and_name_.emplace(family_and_name(factory), declared_.factories.size());
    declared_.factories.push_back(stage(std::move(factory), where));
}

void StagingRegistrar::add_archetype(MoeArchetype archetype, std::string_view where) {
    const std::string what = "archetype " + single_quoted(archetype.compute_factory);
    // Its words (fingerprint, kind, router_kind, shared) are typed, and known once the block was checked.
    if (archetype.compute_factory.empty() || archetype.target_class.empty()) {
        return fail(what + " (" + std::string(where) + ") needs a target_class and a compute factory");
    }
    // An archetype of no family is the framework's (ABI 5.1): it answers under any family.
    if (!archetype.family.empty() && family_named(archetype.family) == nullptr) {
        return fail(what + " (" + std::string(where) + ") names family " + single_quoted(archetype.family) +
                    ", which this plugin does not register");
    }
    const std::string compute_factory(archetype.compute_factory);
    const auto same_factory = indexed(archetype_by_factory_, compute_factory);
    const auto same_fingerprint = indexed(archetype_by_fingerprint_, fingerprint_key(archetype.fingerprint));
    if (same_factory || same_fingerprint) {
        // The earlier of the two, when both are taken.
        const auto& other = declared_.archetypes[std::min(same_factory.value_or(declared_.archetypes.size()),
                                                          same_fingerprint.value_or(declared_.archetypes.size()))];
        return fail(what + " duplicates the fingerprint or compute factory of " +
                    single_quoted(other->compute_factory) + " (" + other.where + " and " + std::string(where) + ")");
    }
    check_parameters(what, archetype.options, where);
    archetype_by_factory_.emplace(compute_factory, declared_.archetypes.size());
    archetype_by_fingerprint_.emplace(fingerprint_key(archetype.fingerprint), declared_.archetypes.size());
    declared_.archetypes.push_back(stage(std::move(archetype), where));
}

void StagingRegistrar::add_cp_wrapper(CpWrapper wrapper, std::string_view where) {
    const std::string what = "CP wrapper " + single_quoted(wrapper.target);
    const std::string target(wrapper.target);
    if (const auto at = indexed(cp_wrapper_by_target_, target)) {
        return fail(what + " registered twice (" + declared_.cp_wrappers[*at].where + " and " + std::string(where) +
                    ")");
    }
    // A CP wrapper of no family is the framework's (ABI 5.1), wherever it lives.
    if (wrapper.target.empty()) return fail(what + " (" + std::string(where) + ") has no target");
    if (!wrapper.family.empty() && !check_family_target("CP wrapper", wrapper.target, wrapper.family, where)) {
        return;
    }
    check_parameters(what, wrapper.options, where);
    cp_wrapper_by_target_.emplace(target, declared_.cp_wrappers.size());
    declared_.cp_wrappers.push_back(stage(std::move(wrapper), where));
}

void StagingRegistrar::add_component(Component component, std::string_view where) {
    const std::string what = "component " + single_quoted(component.name);
    if (component.name.empty() || component.import_module.empty() || component.defining_module.empty()) {
        return fail(what + " (" + std::string(where) + ") needs a name, an import module and a defining module");
    }
    const std::string key = component_key(component);
    if (const auto at = indexed(component_by_path_, key)) {
        return fail(what + " registered twice (" + declared_.components[*at].where + " and " + std::string(where) +
                    ")");
    }
    check_parameters(what, component.parameters, where);
    const auto& source = component.source;
    if (!source.empty() && std::none_of(source.begin(), source.end(), [&](const SourceBlock& block) {
            return std::find(block.defines.begin(), block.defines.end(), component.name) != block.defines.end();
        })) {
        fail(what + " (" + std::string(where) + ") has source blocks but none defines the class");
    }
    component_by_path_.emplace(key, declared_.components.size());
    declared_.components.push_back(stage(std::move(component), where));
}

void StagingRegistrar::add_borrowed_cp_wrapper(std::string_view family, std::string_view target,
                                               std::string_view where) {
    const std::string what = "borrowed CP wrapper " + single_quoted(target);
    if (target.empty()) return fail("a borrowed CP wrapper (" + std::string(where) + ") has no target");
    const auto at = indexed(family_by_model_type_, std::string(family));
    if (!at) {
        return fail(what + " (" + std::string(where) + ") names family " + single_quoted(family) +
                    ", which this plugin does not register");
    }
    if (const auto own = indexed(cp_wrapper_by_target_, std::string(target))) {
        return fail(what + " (" + std::string(where) + ") is declared by this plugin too (" +
                    declared_.cp_wrappers[*own].where + "): a family borrows only another plugin's wrapper");
    }
    auto& borrowed = declared_.families[*at].borrowed_cp_wrappers;
    const auto place = std::lower_bound(borrowed.begin(), borrowed.end(), target);
    if (place != borrowed.end() && *place == target) {
        return fail(what + " borrowed twice by family " + single_quoted(family) + " (" + std::string(where) + ")");
    }
    borrowed.insert(place, std::string(target));
}

}  // namespace famspec::detail
