// The frozen registry: an immutable snapshot of everything the loaded plugins registered.
// Built once by the loader; afterwards any number of threads read it without locks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "famspec/plugin_record.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// The entries (famspec/registry_entries.hpp) and the declarations they hold.
template <class T>
struct Registered;
struct RegisteredFamily;
struct FamilyLookup;
struct Component;
struct CpWrapper;
struct MoeArchetype;
struct ReplacementFactory;

class FAMSPEC_API Registry {
public:
    struct Contents;  // registry_entries.hpp

    explicit Registry(Contents contents);  // shared, never copied: the loader hands out a shared_ptr
    ~Registry();

    // A process-unique number: results computed from one snapshot are never reused for another.
    std::uint64_t generation() const { return generation_; }

    std::span<const PluginRecord> plugins() const;
    std::span<const RegisteredFamily> families() const;
    std::span<const Registered<ReplacementFactory>> factories() const;
    std::span<const Registered<MoeArchetype>> archetypes() const;
    std::span<const Registered<CpWrapper>> cp_wrappers() const;
    std::span<const Registered<Component>> components() const;

    // Any spelling, as the reference looks it up: the exact model_type; else the normalised key among
    // the families' spellings (model_type, architecture, aliases); else among their directory aliases.
    // One hash lookup; allocates nothing (for any spelling under 128 characters).
    const RegisteredFamily* find_family(std::string_view spelling) const;
    // The same lookup with how it matched: the spellings tried and the rule. Made on demand.
    FamilyLookup explain_family(std::string_view spelling) const;
    // By target: <provider module>.<name> for any provider module of the factory's family.
    const Registered<ReplacementFactory>* find_factory(std::string_view target) const;
    const Registered<MoeArchetype>* find_archetype(std::string_view compute_factory) const;
    const Registered<CpWrapper>* find_cp_wrapper(std::string_view target) const;
    // By import module (the re-exporting package or the defining module) and class name, or by <module>.<Class>.
    const Registered<Component>* find_component(std::string_view module, std::string_view name) const;
    const Registered<Component>* find_component(std::string_view dotted) const;
    // The family (model_type) that ships a local_compute_fn target as a non-archetype compute function.
    const RegisteredFamily* find_compute_function_owner(std::string_view target) const;

    bool all_ok() const;

private:
    struct Index;  // the lookup tables, built once from the contents

    std::unique_ptr<const Contents> contents_;
    std::uint64_t generation_;
    std::unique_ptr<const Index> index_;
};

}  // namespace famspec
