// Collects one plugin's declarations and checks each as it arrives. Nothing it holds becomes visible
// unless the whole plugin passes, so a failing plugin is never half-applied. What it holds are the
// core's own copies: nothing points into a plugin file.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "famspec/plugin_manifest.hpp"
#include "famspec/registry.hpp"
#include "famspec/registry_entries.hpp"

namespace famspec::detail {

class StagingRegistrar final {
public:
    StagingRegistrar(std::string plugin, std::string path) : plugin_(std::move(plugin)), path_(std::move(path)) {}

    void add_family(FamilyAdapter family, std::string_view where);
    void add_factory(ReplacementFactory factory, std::string_view where);
    void add_archetype(MoeArchetype archetype, std::string_view where);
    void add_cp_wrapper(CpWrapper wrapper, std::string_view where);
    void add_component(Component component, std::string_view where);
    void add_provider_module(std::string_view family, std::string_view module, std::string_view where);
    // A CP wrapper of another plugin's family that answers for `family` too; it claims nothing.
    void add_borrowed_cp_wrapper(std::string_view family, std::string_view target, std::string_view where);

    const std::vector<std::string>& errors() const { return errors_; }
    // The staged declarations, handed over once the plugin has passed every stage.
    struct Declarations {
        std::vector<RegisteredFamily> families;
        std::vector<Registered<ReplacementFactory>> factories;
        std::vector<Registered<MoeArchetype>> archetypes;
        std::vector<Registered<CpWrapper>> cp_wrappers;
        std::vector<Registered<Component>> components;
    };
    // The declarations alone, for a plugin that has passed its own stages: the registrar's
    // uniqueness indexes check one plugin only, and a load of N plugins need not hold N sets of them.
    Declarations take() && { return std::move(declared_); }

private:
    template <class T>
    Registered<T> stage(T declaration, std::string_view where) const {
        return Registered<T>{std::make_shared<const T>(std::move(declaration)), plugin_, path_, std::string(where)};
    }
    const RegisteredFamily* family_named(std::string_view model_type) const;
    bool check_family_target(std::string_view what, std::string_view target, std::string_view family,
                             std::string_view where, bool is_module = false);
    bool check_provider(std::string_view what, const ReplacementFactory& factory, std::string_view where);
    void check_parameters(std::string_view what, std::span<const Parameter> parameters, std::string_view where);
    void fail(std::string message) { errors_.push_back(std::move(message)); }

    std::string plugin_;
    std::string path_;
    std::vector<std::string> errors_;
    Declarations declared_;
    // What is staged, by the keys that must be unique, each to its index in declared_'s lists: a
    // plugin of many thousand declarations is checked in time linear in their number.
    using Index = std::unordered_map<std::string, std::size_t>;
    Index family_by_model_type_, family_by_name_, family_by_spelling_, family_by_directory_key_;
    Index factory_by_target_, archetype_by_factory_, archetype_by_fingerprint_, cp_wrapper_by_target_;
    Index factory_by_family_and_name_;
    Index component_by_path_;
};

}  // namespace famspec::detail
