#include "famspec/registry.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <set>
#include <unordered_map>

#include "common/dotted_path.hpp"
#include "common/family_key_index.hpp"
#include "famspec/family_keys.hpp"
#include "famspec/registry_entries.hpp"

namespace famspec {
namespace {

std::atomic<std::uint64_t> next_generation{1};

// std::string keys looked up by std::string_view, with no string built for the lookup. Deliberately
// not noexcept: libstdc++ then keeps each key's hash in its node, so a lookup walking a bucket
// compares stored hashes instead of hashing every neighbour again.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

template <class Map>
const auto* lookup(const Map& map, std::string_view key, const auto& items) {
    const auto it = map.find(key);
    return it == map.end() ? nullptr : &items[it->second];
}

// The normalised key of a spelling, on the stack unless the spelling is unusually long.
class KeyBuffer {
public:
    explicit KeyBuffer(std::string_view name) {
        char* out = short_.data();
        if (name.size() > short_.size()) {
            long_.resize(name.size());
            out = long_.data();
        }
        key_ = std::string_view(out, detail::normalize_family_key_into(name, out));
    }
    KeyBuffer(const KeyBuffer&) = delete;
    KeyBuffer& operator=(const KeyBuffer&) = delete;
    std::string_view key() const { return key_; }

private:
    std::array<char, 128> short_;
    std::string long_;
    std::string_view key_;
};

using detail::FamilyKey;

}  // namespace

// No lookup depends on the order of these maps, and none is ever iterated. Hidden: a nested class of
// an exported class is exported by default, and the index is not the embedder's API.
struct __attribute__((visibility("hidden"))) Registry::Index {
    explicit Index(Contents& contents);
    void index_families(std::vector<RegisteredFamily>& families);
    void index_factories(Contents& contents);
    void index_spellings(const std::vector<RegisteredFamily>& families);
    const FamilyKey* family_key(std::string_view spelling) const;
    std::size_t family_of(std::string_view spelling, const std::vector<RegisteredFamily>& families) const;

    StringMap<FamilyKey> family_by_key;
    // Every spelling a family registered, as written, with the family the keys answer for it: the
    // spellings callers usually pass (a config's model_type or architecture) are not normalised.
    StringMap<std::size_t> family_by_spelling;
    StringMap<std::size_t> family_by_model_type;
    StringMap<std::size_t> factory_by_target;
    StringMap<std::size_t> archetype_by_factory;
    StringMap<std::size_t> cp_wrapper_by_target;
    StringMap<std::size_t> component_by_path;
    StringMap<std::size_t> compute_function_owner;
};

std::string defining_path(const Component& component) {
    std::string path(component.defining_module);
    path += '.';
    path += component.name;
    return path;
}

Registry::Registry(Contents contents) : generation_(next_generation++) {
    auto owned = std::make_unique<Contents>(std::move(contents));
    index_ = std::make_unique<const Index>(*owned);  // completes each family's keys and providers
    contents_ = std::move(owned);
}

std::span<const PluginRecord> Registry::plugins() const { return contents_->plugins; }
std::span<const RegisteredFamily> Registry::families() const { return contents_->families; }
std::span<const Registered<ReplacementFactory>> Registry::factories() const { return contents_->factories; }
std::span<const Registered<MoeArchetype>> Registry::archetypes() const { return contents_->archetypes; }
std::span<const Registered<CpWrapper>> Registry::cp_wrappers() const { return contents_->cp_wrappers; }
std::span<const Registered<Component>> Registry::components() const { return contents_->components; }

Registry::Index::Index(Contents& contents) {
    index_families(contents.families);
    index_spellings(contents.families);
    index_factories(contents);
    for (std::size_t i = 0; i < contents.archetypes.size(); ++i) {
        archetype_by_factory.emplace(std::string(contents.archetypes[i]->compute_factory), i);
    }
    for (std::size_t i = 0; i < contents.cp_wrappers.size(); ++i) {
        cp_wrapper_by_target.emplace(std::string(contents.cp_wrappers[i]->target), i);
    }
    for (std::size_t i = 0; i < contents.components.size(); ++i) {
        const auto& component = contents.components[i];
        component_by_path.emplace(defining_path(*component), i);
        component_by_path.emplace(std::string(component->import_module) + "." + std::string(component->name), i);
    }
}

Registry::~Registry() = default;

void Registry::Index::index_families(std::vector<RegisteredFamily>& families) {
    for (std::size_t i = 0; i < families.size(); ++i) {
        family_by_model_type.emplace(std::string(families[i]->model_type), i);
        for (const auto& target : families[i]->compute_functions) compute_function_owner.emplace(target, i);
    }
    detail::claim_family_keys(
        family_by_key, families.size(), [&](std::size_t i) -> std::string_view { return families[i]->model_type; },
        [&](std::size_t i) -> const auto& { return families[i].spellings; },
        [&](std::size_t i) -> const auto& { return families[i].directory_keys; });
    // What each family is told apart by: the keys that answer it.
    for (std::size_t i = 0; i < families.size(); ++i) {
        auto& spellings = families[i].spellings;
        std::erase_if(spellings, [&](const std::string& key) { return family_by_key.at(key).spelling != i; });
    }
}

const FamilyKey* Registry::Index::family_key(std::string_view spelling) const {
    const KeyBuffer key(spelling);
    const auto it = family_by_key.find(key.key());
    return it == family_by_key.end() ? nullptr : &it->second;
}

std::size_t Registry::Index::family_of(std::string_view spelling, const std::vector<RegisteredFamily>& families) const {
    return detail::family_answering(family_key(spelling), spelling,
                                    [&](std::size_t i) -> std::string_view { return families[i]->model_type; });
}

// The answers for the registered spellings, by the same rule as any other spelling's.
void Registry::Index::index_spellings(const std::vector<RegisteredFamily>& families) {
    const auto add = [&](std::string_view spelling) {
        if (family_by_spelling.contains(spelling)) return;
        if (const std::size_t i = family_of(spelling, families); i != FamilyKey::kNone)
            family_by_spelling.emplace(std::string(spelling), i);
    };
    for (const auto& family : families) {
        add(family->model_type);
        add(family->architecture);
        for (const auto& alias : family->aliases) add(alias);
        for (const auto& directory : family->directory_aliases) add(directory);
    }
}

const RegisteredFamily* Registry::find_family(std::string_view spelling) const {
    const auto verbatim = index_->family_by_spelling.find(spelling);
    const std::size_t i = verbatim != index_->family_by_spelling.end()
                              ? verbatim->second
                              : index_->family_of(spelling, contents_->families);
    return i == FamilyKey::kNone ? nullptr : &contents_->families[i];
}

FamilyLookup Registry::explain_family(std::string_view spelling) const {
    FamilyLookup lookup{find_family(spelling), {std::string(spelling)}, {}};
    if (lookup.family != nullptr && (*lookup.family)->model_type == spelling) {
        lookup.rule = "exact model_type";
        return lookup;
    }
    const std::string key = normalize_family_key(spelling);
    if (key != spelling) lookup.spellings_tried.push_back(key);
    if (lookup.family == nullptr) return lookup;
    // The reference imports a directory's registration and looks again; every plugin is already
    // loaded here, so no family registers the identity itself: the directory's does.
    const bool named = index_->family_key(spelling)->spelling != FamilyKey::kNone;
    lookup.rule = (named ? "normalised key '" : "directory alias '") + key + "'";
    return lookup;
}

void Registry::Index::index_factories(Contents& contents) {
    // A family that declared provider modules has each factory under every one of them. One that
    // declared none has each under its own target only, and lists the modules they live in.
    std::vector<bool> declared;
    for (const auto& family : contents.families) declared.push_back(!family.provider_modules.empty());
    for (std::size_t i = 0; i < contents.factories.size(); ++i) {
        const std::string_view target = contents.factories[i]->target;
        factory_by_target.emplace(std::string(target), i);
        const auto owner = family_by_model_type.find(contents.factories[i]->family);
        if (owner == family_by_model_type.end()) continue;
        auto& providers = contents.families[owner->second].provider_modules;
        const auto [home, name] = detail::split_last(target);
        if (!declared[owner->second]) {
            if (std::find(providers.begin(), providers.end(), home) == providers.end()) providers.emplace_back(home);
            continue;
        }
        for (const auto& provider : providers) factory_by_target.emplace(provider + "." + std::string(name), i);
    }
    for (auto& family : contents.families) std::sort(family.provider_modules.begin(), family.provider_modules.end());
}

const Registered<ReplacementFactory>* Registry::find_factory(std::string_view target) const {
    return lookup(index_->factory_by_target, target, contents_->factories);
}

const Registered<MoeArchetype>* Registry::find_archetype(std::string_view compute_factory) const {
    return lookup(index_->archetype_by_factory, compute_factory, contents_->archetypes);
}

const Registered<CpWrapper>* Registry::find_cp_wrapper(std::string_view target) const {
    return lookup(index_->cp_wrapper_by_target, target, contents_->cp_wrappers);
}

const Registered<Component>* Registry::find_component(std::string_view module, std::string_view name) const {
    std::string dotted(module);
    dotted += '.';
    dotted += name;
    return find_component(std::string_view(dotted));
}

const Registered<Component>* Registry::find_component(std::string_view dotted) const {
    return lookup(index_->component_by_path, dotted, contents_->components);
}

const RegisteredFamily* Registry::find_compute_function_owner(std::string_view target) const {
    return lookup(index_->compute_function_owner, target, contents_->families);
}

bool Registry::all_ok() const {
    return std::all_of(contents_->plugins.begin(), contents_->plugins.end(), [](const auto& p) { return p.ok(); });
}

}  // namespace famspec
