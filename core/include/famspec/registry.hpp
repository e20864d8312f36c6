// The frozen registry: an immutable snapshot of everything the loaded plugins registered.
// Built once by the loader; afterwards any number of threads read it without locks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/moe_vocabulary.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// The SDK interfaces the registered objects implement. A host that calls them includes their
// headers: famspec/sdk/family_adapter.hpp and its neighbours.
class Component;
class CpWrapper;
class FamilyAdapter;
class MoeArchetype;
class ReplacementFactory;

// A registered object, the plugin it came from and where it was declared. The object keeps its
// plugin library mapped for as long as anyone holds it.
template <class T>
struct Registered {
    std::shared_ptr<const T> object;
    std::string plugin;  // plugin name
    std::string path;    // plugin file
    std::string where;   // declaration site, "file:line"

    const T& operator*() const { return *object; }
    const T* operator->() const { return object.get(); }
};

// <defining module>.<Class>: how a component is named in messages, manifests and explanations.
FAMSPEC_API std::string defining_path(const Component& component);

struct RegisteredFamily : Registered<FamilyAdapter> {
    // Normalised keys of its model_type, architecture and aliases. In a Registry, only the keys that
    // answer this family: another family's own name outranks its architecture or alias.
    std::vector<std::string> spellings;
    // Normalised directory aliases: identities whose registration lives in this family's directory.
    // A key space of its own, so a family's spelling (deepseek_v2) may equal another family's
    // directory alias (deepseekv2 -> deepseek_v3); a lookup tries spellings first.
    std::vector<std::string> directory_keys;
    // The modules that hold its replacement factories, sorted: those it declared (each factory then
    // resolves under every one of them), or else the modules its factory targets live in.
    std::vector<std::string> provider_modules;
};

// An archetype with its words checked and typed when it registered.
struct RegisteredArchetype : Registered<MoeArchetype> {
    MoeStructure structure;   // the fingerprint
    MoeRouter router_kind{};  // the runtime router adapter
    SharedExperts shared{};   // how the shared branch merges
};

// How a spelling was matched to a family, for `resolve --explain` (Registry::explain_family).
struct FamilyLookup {
    const RegisteredFamily* family = nullptr;
    std::vector<std::string> spellings_tried;
    std::string rule;  // "exact model_type", "normalised key '<k>'" or "directory alias '<k>'"
};

class FAMSPEC_API Registry {
public:
    struct Contents {
        std::vector<PluginRecord> plugins;
        std::vector<RegisteredFamily> families;
        std::vector<Registered<ReplacementFactory>> factories;
        std::vector<RegisteredArchetype> archetypes;
        std::vector<Registered<CpWrapper>> cp_wrappers;
        std::vector<Registered<Component>> components;
    };

    explicit Registry(Contents contents);
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;
    ~Registry();

    // A process-unique number: results computed from one snapshot are never reused for another.
    std::uint64_t generation() const { return generation_; }

    std::span<const PluginRecord> plugins() const { return contents_.plugins; }
    std::span<const RegisteredFamily> families() const { return contents_.families; }
    std::span<const Registered<ReplacementFactory>> factories() const { return contents_.factories; }
    std::span<const RegisteredArchetype> archetypes() const { return contents_.archetypes; }
    std::span<const Registered<CpWrapper>> cp_wrappers() const { return contents_.cp_wrappers; }
    std::span<const Registered<Component>> components() const { return contents_.components; }

    // Any spelling, as the reference looks it up: the exact model_type; else the normalised key among
    // the families' spellings (model_type, architecture, aliases); else among their directory aliases.
    // One hash lookup; allocates nothing (for any spelling under 128 characters).
    const RegisteredFamily* find_family(std::string_view spelling) const;
    // The same lookup with how it matched: the spellings tried and the rule. Made on demand.
    FamilyLookup explain_family(std::string_view spelling) const;
    // By target: <provider module>.<name> for any provider module of the factory's family.
    const Registered<ReplacementFactory>* find_factory(std::string_view target) const;
    const RegisteredArchetype* find_archetype(std::string_view compute_factory) const;
    const Registered<CpWrapper>* find_cp_wrapper(std::string_view target) const;
    // By import module (the re-exporting package or the defining module) and class name.
    const Registered<Component>* find_component(std::string_view module, std::string_view name) const;
    // By a dotted path <module>.<Class>.
    const Registered<Component>* find_component(std::string_view dotted) const;
    // The family (model_type) that ships a local_compute_fn target as a non-archetype compute function.
    const RegisteredFamily* find_compute_function_owner(std::string_view target) const;

    bool all_ok() const;

    // The loaded plugin set as canonical JSON with its digest (see snapshot.hpp). Reads each plugin file
    // to hash it, so call it once and keep the result.
    std::string snapshot() const;

private:
    struct Index;  // the lookup tables, built once from the contents

    Contents contents_;
    std::uint64_t generation_;
    std::unique_ptr<const Index> index_;
};

}  // namespace famspec
