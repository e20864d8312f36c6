#include "famspec/registry.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <set>

namespace famspec {
namespace {

std::atomic<std::uint64_t> next_generation{1};

template <class Map>
const auto* lookup(const Map& map, std::string_view key, const auto& items) {
    const auto it = map.find(key);
    return it == map.end() ? nullptr : &items[it->second];
}

}  // namespace

std::string normalize_family_key(std::string_view name) {
    std::string key;
    key.reserve(name.size());
    for (const char c : name) {
        if (c == '_' || c == '-') continue;
        key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    static constexpr std::array<std::string_view, 4> kSuffixes = {"forcausallm", "forconditionalgeneration",
                                                                  "forsequenceclassification", "forimagetexttotext"};
    for (const std::string_view suffix : kSuffixes) {
        if (key.size() > suffix.size() && key.ends_with(suffix)) {
            key.resize(key.size() - suffix.size());
            break;
        }
    }
    return key;
}

std::vector<std::string> family_spellings(std::string_view model_type, std::string_view architecture,
                                          std::span<const std::string> aliases) {
    std::set<std::string> keys = {normalize_family_key(model_type), normalize_family_key(architecture)};
    for (const auto& alias : aliases) keys.insert(normalize_family_key(alias));
    keys.erase("");
    return {keys.begin(), keys.end()};
}

std::vector<std::string> directory_keys(std::span<const std::string> directory_aliases) {
    std::set<std::string> keys;
    for (const auto& alias : directory_aliases) keys.insert(normalize_family_key(alias));
    keys.erase("");
    return {keys.begin(), keys.end()};
}

Registry::Registry(Contents contents) : contents_(std::move(contents)), generation_(next_generation++) {
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        auto& family = contents_.families[i];
        family_by_model_type_.emplace(std::string(family->model_type()), i);
        // A family's own name first: it outranks another family's architecture or alias.
        family_by_key_.emplace(normalize_family_key(family->model_type()), i);
        for (const auto& key : family.directory_keys) family_by_directory_key_.emplace(key, i);
        for (const auto& target : family->compute_functions()) compute_function_owner_.emplace(target, i);
    }
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        for (const auto& key : contents_.families[i].spellings) family_by_key_.emplace(key, i);
    }
    // What each family is told apart by: the keys that answer it.
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        auto& spellings = contents_.families[i].spellings;
        std::erase_if(spellings, [&](const std::string& key) { return family_by_key_.at(key) != i; });
    }
    index_factories();
    for (std::size_t i = 0; i < contents_.archetypes.size(); ++i) {
        archetype_by_factory_.emplace(std::string(contents_.archetypes[i]->compute_factory()), i);
    }
    for (std::size_t i = 0; i < contents_.cp_wrappers.size(); ++i) {
        cp_wrapper_by_target_.emplace(std::string(contents_.cp_wrappers[i]->target()), i);
    }
    for (std::size_t i = 0; i < contents_.components.size(); ++i) {
        const auto& component = contents_.components[i];
        const std::string name(component->name());
        component_by_path_.emplace(std::string(component->defining_module()) + "." + name, i);
        component_by_path_.emplace(std::string(component->import_module()) + "." + name, i);
    }
}

Registry::~Registry() = default;

FamilyLookup Registry::find_family(std::string_view spelling) const {
    FamilyLookup lookup;
    lookup.spellings_tried.emplace_back(spelling);
    if (const auto it = family_by_model_type_.find(spelling); it != family_by_model_type_.end()) {
        lookup.family = &contents_.families[it->second];
        lookup.rule = "exact model_type";
        return lookup;
    }
    const std::string key = normalize_family_key(spelling);
    if (key != spelling) lookup.spellings_tried.push_back(key);
    if (const auto it = family_by_key_.find(key); it != family_by_key_.end()) {
        lookup.family = &contents_.families[it->second];
        lookup.rule = "normalised key '" + key + "'";
    } else if (const auto dir = family_by_directory_key_.find(key); dir != family_by_directory_key_.end()) {
        // The reference imports that directory's registration and looks again; every plugin is
        // already loaded here, so no family registers the identity itself: the directory's does.
        lookup.family = &contents_.families[dir->second];
        lookup.rule = "directory alias '" + key + "'";
    }
    return lookup;
}

void Registry::index_factories() {
    // A family that declared provider modules has each factory under every one of them. One that
    // declared none has each under its own target only, and lists the modules they live in.
    std::vector<bool> declared;
    for (const auto& family : contents_.families) declared.push_back(!family.provider_modules.empty());
    for (std::size_t i = 0; i < contents_.factories.size(); ++i) {
        const std::string_view target = contents_.factories[i]->target();
        factory_by_target_.emplace(std::string(target), i);
        const auto owner = family_by_model_type_.find(contents_.factories[i]->family());
        if (owner == family_by_model_type_.end()) continue;
        auto& providers = contents_.families[owner->second].provider_modules;
        const std::string_view home = target.substr(0, target.rfind('.'));
        if (!declared[owner->second]) {
            if (std::find(providers.begin(), providers.end(), home) == providers.end()) providers.emplace_back(home);
            continue;
        }
        const std::string_view name = target.substr(target.rfind('.') + 1);
        for (const auto& provider : providers) factory_by_target_.emplace(provider + "." + std::string(name), i);
    }
    for (auto& family : contents_.families) std::sort(family.provider_modules.begin(), family.provider_modules.end());
}

const Registered<ReplacementFactory>* Registry::find_factory(std::string_view target) const {
    return lookup(factory_by_target_, target, contents_.factories);
}

const RegisteredArchetype* Registry::find_archetype(std::string_view compute_factory) const {
    return lookup(archetype_by_factory_, compute_factory, contents_.archetypes);
}

const Registered<CpWrapper>* Registry::find_cp_wrapper(std::string_view target) const {
    return lookup(cp_wrapper_by_target_, target, contents_.cp_wrappers);
}

const Registered<Component>* Registry::find_component(std::string_view module, std::string_view name) const {
    std::string dotted(module);
    dotted += '.';
    dotted += name;
    return find_component(std::string_view(dotted));
}

const Registered<Component>* Registry::find_component(std::string_view dotted) const {
    return lookup(component_by_path_, dotted, contents_.components);
}

const RegisteredFamily* Registry::find_compute_function_owner(std::string_view target) const {
    return lookup(compute_function_owner_, target, contents_.families);
}

bool Registry::all_ok() const {
    return std::all_of(contents_.plugins.begin(), contents_.plugins.end(), [](const auto& p) { return p.ok(); });
}

}  // namespace famspec
