#include "famspec/registry.hpp"

#include <algorithm>
#include <array>
#include <atomic>
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

namespace {

// Writes the normalised key of `name` to `out`, which has room for name.size() characters; returns
// its length. ASCII case folding only: the key never depends on the host's locale.
std::size_t normalize_into(std::string_view name, char* out) {
    std::size_t size = 0;
    for (const char c : name) {
        out[size] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        size += c != '_' && c != '-';  // no branch on the characters of the name
    }
    static constexpr std::array<std::string_view, 4> kSuffixes = {"forcausallm", "forconditionalgeneration",
                                                                  "forsequenceclassification", "forimagetexttotext"};
    const std::string_view key(out, size);
    for (const std::string_view suffix : kSuffixes) {
        // The last character first: most keys end in none of the suffixes.
        if (size > suffix.size() && key.back() == suffix.back() && key.ends_with(suffix)) return size - suffix.size();
    }
    return size;
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
        key_ = std::string_view(out, normalize_into(name, out));
    }
    KeyBuffer(const KeyBuffer&) = delete;
    KeyBuffer& operator=(const KeyBuffer&) = delete;
    std::string_view key() const { return key_; }

private:
    std::array<char, 128> short_;
    std::string long_;
    std::string_view key_;
};

}  // namespace

std::string normalize_family_key(std::string_view name) {
    std::string key(name.size(), '\0');
    key.resize(normalize_into(name, key.data()));
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
    index_families();
    index_factories();
    for (std::size_t i = 0; i < contents_.archetypes.size(); ++i) {
        archetype_by_factory_.emplace(std::string(contents_.archetypes[i]->compute_factory()), i);
    }
    for (std::size_t i = 0; i < contents_.cp_wrappers.size(); ++i) {
        cp_wrapper_by_target_.emplace(std::string(contents_.cp_wrappers[i]->target()), i);
    }
    for (std::size_t i = 0; i < contents_.components.size(); ++i) {
        const auto& component = contents_.components[i];
        component_by_path_.emplace(defining_path(*component), i);
        component_by_path_.emplace(std::string(component->import_module()) + "." + std::string(component->name()), i);
    }
}

Registry::~Registry() = default;

void Registry::index_families() {
    const auto claim = [](std::size_t& slot, std::size_t i) {
        if (slot == FamilyKey::kNone) slot = i;  // the first family to claim a key keeps it
    };
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        auto& family = contents_.families[i];
        family_by_model_type_.emplace(std::string(family->model_type()), i);
        // A family's own name first: it outranks another family's architecture or alias.
        FamilyKey& own = family_by_key_[normalize_family_key(family->model_type())];
        own.model_types.push_back(i);
        claim(own.spelling, i);
        for (const auto& key : family.directory_keys) claim(family_by_key_[key].directory, i);
        for (const auto& target : family->compute_functions()) compute_function_owner_.emplace(target, i);
    }
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        for (const auto& key : contents_.families[i].spellings) claim(family_by_key_[key].spelling, i);
    }
    // What each family is told apart by: the keys that answer it.
    for (std::size_t i = 0; i < contents_.families.size(); ++i) {
        auto& spellings = contents_.families[i].spellings;
        std::erase_if(spellings, [&](const std::string& key) { return family_by_key_.at(key).spelling != i; });
    }
}

const Registry::FamilyKey* Registry::family_key(std::string_view spelling) const {
    const KeyBuffer key(spelling);
    const auto it = family_by_key_.find(key.key());
    return it == family_by_key_.end() ? nullptr : &it->second;
}

const RegisteredFamily* Registry::find_family(std::string_view spelling) const {
    const FamilyKey* key = family_key(spelling);
    if (key == nullptr) return nullptr;
    for (const std::size_t i : key->model_types) {
        if (contents_.families[i]->model_type() == spelling) return &contents_.families[i];
    }
    const std::size_t i = key->spelling != FamilyKey::kNone ? key->spelling : key->directory;
    return i == FamilyKey::kNone ? nullptr : &contents_.families[i];
}

FamilyLookup Registry::explain_family(std::string_view spelling) const {
    FamilyLookup lookup{find_family(spelling), {std::string(spelling)}, {}};
    if (lookup.family != nullptr && (*lookup.family)->model_type() == spelling) {
        lookup.rule = "exact model_type";
        return lookup;
    }
    const std::string key = normalize_family_key(spelling);
    if (key != spelling) lookup.spellings_tried.push_back(key);
    if (lookup.family == nullptr) return lookup;
    // The reference imports a directory's registration and looks again; every plugin is already
    // loaded here, so no family registers the identity itself: the directory's does.
    const bool named = family_key(spelling)->spelling != FamilyKey::kNone;
    lookup.rule = (named ? "normalised key '" : "directory alias '") + key + "'";
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
