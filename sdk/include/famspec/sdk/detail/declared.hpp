// The interface objects the declare:: builders produce. Nothing here is for an author to call:
// Family::register_into() and Components::register_into() hand these to the Registrar.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "famspec/sdk/declare.hpp"

namespace famspec::declare::detail {

class DeclaredFamily final : public FamilyAdapter {
public:
    DeclaredFamily(std::string model_type, std::string architecture, std::vector<std::string> aliases,
                   std::vector<std::string> directory_aliases, std::vector<SourceBlock> interface_blocks,
                   std::vector<std::string> compute_functions)
        : model_type_(std::move(model_type)),
          architecture_(std::move(architecture)),
          aliases_(std::move(aliases)),
          directory_aliases_(std::move(directory_aliases)),
          interface_blocks_(std::move(interface_blocks)),
          compute_functions_(std::move(compute_functions)) {}

    std::string_view model_type() const override { return model_type_; }
    std::string_view architecture() const override { return architecture_; }
    std::span<const std::string> aliases() const override { return aliases_; }
    std::span<const std::string> directory_aliases() const override { return directory_aliases_; }
    std::span<const SourceBlock> interface_blocks() const override { return interface_blocks_; }
    std::span<const std::string> compute_functions() const override { return compute_functions_; }

private:
    std::string model_type_, architecture_;
    std::vector<std::string> aliases_, directory_aliases_;
    std::vector<SourceBlock> interface_blocks_;
    std::vector<std::string> compute_functions_;
};

class DeclaredFactory final : public ReplacementFactory {
public:
    DeclaredFactory(std::string family, std::string target, const FactoryData& decl)
        : family_(std::move(family)),
          target_(std::move(target)),
          parameters_(decl.parameters),
          construction_(decl.construction),
          runtime_only_reason_(decl.runtime_only_reason) {}

    std::string_view family() const override { return family_; }
    std::string_view target() const override { return target_; }
    std::span<const Parameter> parameters() const override { return parameters_; }
    const Construction* construction() const override { return construction_ ? &*construction_ : nullptr; }
    std::string_view runtime_only_reason() const override { return runtime_only_reason_; }

private:
    std::string family_, target_;
    std::vector<Parameter> parameters_;
    std::optional<Construction> construction_;
    std::string runtime_only_reason_;
};

class DeclaredArchetype final : public MoeArchetype {
public:
    DeclaredArchetype(std::string family, ArchetypeDecl decl) : family_(std::move(family)), decl_(std::move(decl)) {}

    std::string_view family() const override { return family_; }
    const MoeFingerprint& fingerprint() const override { return decl_.fingerprint; }
    std::string_view kind() const override { return decl_.kind; }
    std::string_view target_class() const override { return decl_.target_class; }
    std::string_view router_kind() const override { return decl_.router_kind; }
    std::string_view shared() const override { return decl_.shared; }
    std::span<const std::string> strip_boundary_subpatterns() const override {
        return decl_.strip_boundary_subpatterns;
    }
    std::string_view compute_factory() const override { return decl_.compute_factory; }
    std::span<const Parameter> options() const override { return decl_.options.parameters(); }

private:
    std::string family_;
    ArchetypeDecl decl_;
};

class DeclaredCpWrapper final : public CpWrapper {
public:
    DeclaredCpWrapper(std::string family, std::string target, std::vector<Parameter> options)
        : family_(std::move(family)), target_(std::move(target)), options_(std::move(options)) {}

    std::string_view family() const override { return family_; }
    std::string_view target() const override { return target_; }
    std::span<const Parameter> options() const override { return options_; }

private:
    std::string family_, target_;
    std::vector<Parameter> options_;
};

class DeclaredComponent final : public Component {
public:
    DeclaredComponent(const std::string& package, ComponentDecl decl)
        : import_module_(package), defining_module_(package + "." + decl.submodule), decl_(std::move(decl)) {}

    std::string_view name() const override { return decl_.name; }
    std::string_view import_module() const override { return import_module_; }
    std::string_view defining_module() const override { return defining_module_; }
    std::span<const Parameter> parameters() const override { return decl_.signature.parameters(); }
    std::span<const SourceBlock> source() const override { return decl_.source; }

private:
    std::string import_module_, defining_module_;
    ComponentDecl decl_;
};

}  // namespace famspec::declare::detail

namespace famspec::declare {

inline void Family::register_into(Registrar& registrar) const {
    registrar.add_family(
        std::make_unique<detail::DeclaredFamily>(model_type_, architecture_, aliases_, directory_aliases_,
                                                 interface_blocks_, compute_functions_),
        where_);
    for (const ProviderDecl& provider : providers_)
        registrar.add_provider_module(model_type_, provider.module, provider.where);
    for (const detail::FactoryData& factory : factories_) {
        registrar.add_factory(
            std::make_unique<detail::DeclaredFactory>(model_type_, qualified(factory.target), factory), factory.where);
    }
    for (const CpWrapperDecl& wrapper : cp_wrappers_) {
        registrar.add_cp_wrapper(
            std::make_unique<detail::DeclaredCpWrapper>(model_type_, wrapper.target, wrapper.options.parameters()),
            wrapper.where);
    }
    for (const SitedArchetype& archetype : archetypes_) {
        registrar.add_archetype(std::make_unique<detail::DeclaredArchetype>(model_type_, archetype.decl),
                                archetype.where);
    }
}

inline void Components::register_into(Registrar& registrar) const {
    for (const Sited& component : components_) {
        registrar.add_component(std::make_unique<detail::DeclaredComponent>(package_, component.decl), component.where);
    }
}

}  // namespace famspec::declare
