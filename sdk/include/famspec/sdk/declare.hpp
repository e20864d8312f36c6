// Declarative builders: a family plugin states what its family is and what each target declares,
// and these turn the statements into the interface objects the core asks.
#pragma once

#include <deque>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "famspec/sdk/registrar.hpp"
#include "famspec/sdk/source_site.hpp"

namespace famspec::declare {

// ---- signatures -------------------------------------------------------------------------------

struct KeywordOnly {};
inline constexpr KeywordOnly kw_only{};  // the bare `*` of a Python signature

inline Parameter param(std::string name) {
    return {std::move(name), ParameterKind::positional_or_keyword, Default::required()};
}
inline Parameter param(std::string name, PyLiteral fallback) {
    return {std::move(name), ParameterKind::positional_or_keyword, Default::literal(std::move(fallback))};
}
inline Parameter param(std::string name, Default fallback) {
    return {std::move(name), ParameterKind::positional_or_keyword, std::move(fallback)};
}
// A default that is a Python expression but not a literal, e.g. a function object.
inline Default expression(std::string source) { return Default::expression(std::move(source)); }

// A Python signature written in order; parameters after kw_only are keyword-only.
class Signature {
public:
    class Item {
    public:
        Item(Parameter parameter) : parameter_(std::move(parameter)) {}  // NOLINT(google-explicit-constructor)
        Item(KeywordOnly) : marker_(true) {}                             // NOLINT(google-explicit-constructor)

    private:
        friend class Signature;
        Parameter parameter_;
        bool marker_ = false;
    };

    Signature() = default;
    Signature(std::initializer_list<Item> items) {
        bool keyword_only = false;
        for (const Item& item : items) {
            if (item.marker_) {
                keyword_only = true;
                continue;
            }
            Parameter parameter = item.parameter_;
            if (keyword_only) parameter.kind = ParameterKind::keyword_only;
            parameters_.push_back(std::move(parameter));
        }
    }
    const std::vector<Parameter>& parameters() const { return parameters_; }

private:
    std::vector<Parameter> parameters_;
};

inline std::string site(const SourceSite& where) {
    return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

// ---- declarations -------------------------------------------------------------------------------

// Fields with a default may be left out of a designated initializer.
struct ArchetypeDecl {
    MoeFingerprint fingerprint{};
    std::string kind = "moe_ep_routed";
    std::string target_class{};
    std::string router_kind{};
    std::string shared{};
    std::vector<std::string> strip_boundary_subpatterns{};
    std::string compute_factory{};
    Signature options{};
};

struct ComponentDecl {
    std::string name{};
    std::string submodule{};  // the defining module is <package>.<submodule>
    Signature signature{};
    std::vector<SourceBlock> source{};  // class block and helpers; leave empty if never rendered
};

class FactoryDecl {
public:
    explicit FactoryDecl(std::string target, std::string where) : target_(std::move(target)), where_(std::move(where)) {
        // Every @module_replacement factory takes these three at runtime.
        parameters_ = {param("module"), param("module_fqn", ""), param("context", none)};
    }

    // Cls(module=module, ...): the source instance is kept as the wrapper input.
    FactoryDecl& wraps(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::wrap_source, false);
    }
    // Cls(module, ...): still a wrap, with the module handed over positionally.
    FactoryDecl& wraps_positionally(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::wrap_source, true);
    }
    // Cls(original args): a swap by name; the source class is removed.
    FactoryDecl& replaces(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::name, false);
    }
    // keyword=<factory parameter>: rendered as the component default, or as a plan option.
    FactoryDecl& bind(std::string keyword) {
        std::string parameter = keyword;
        return bind(std::move(keyword), std::move(parameter));
    }
    FactoryDecl& bind(std::string keyword, std::string parameter) {
        return argument({std::move(keyword), ArgumentBinding::parameter, std::move(parameter)});
    }
    // keyword=<python source>, rendered as written.
    FactoryDecl& pass(std::string keyword, std::string source) {
        return argument({std::move(keyword), ArgumentBinding::literal, std::move(source)});
    }
    // keyword=<family function>: the component is rendered into the artifact with that function.
    FactoryDecl& hand_over(std::string keyword, std::string function) {
        return argument({std::move(keyword), ArgumentBinding::interface, std::move(function)});
    }
    // A further factory parameter (a static option a plan may set).
    FactoryDecl& option(std::string name, PyLiteral fallback) {
        parameters_.push_back(param(std::move(name), std::move(fallback)));
        return *this;
    }
    // The factory builds at runtime only (e.g. Cls.from_module): there is nothing to sink.
    FactoryDecl& runtime_only(std::string reason) {
        construction_.reset();
        runtime_only_reason_ = std::move(reason);
        return *this;
    }

    const std::string& target() const { return target_; }
    const std::string& where() const { return where_; }
    const std::vector<Parameter>& parameters() const { return parameters_; }
    const Construction* construction() const { return construction_ ? &*construction_ : nullptr; }
    const std::string& runtime_only_reason() const { return runtime_only_reason_; }

private:
    FactoryDecl& constructs(std::string component, std::string from, ConstructionMode mode, bool positional) {
        construction_ = Construction{std::move(component), std::move(from), mode, positional, {}};
        runtime_only_reason_.clear();
        return *this;
    }
    FactoryDecl& argument(Argument argument) {
        if (construction_)
            construction_->arguments.push_back(std::move(argument));
        else
            pending_.push_back(std::move(argument));
        return *this;
    }

    std::string target_;
    std::string where_;
    std::vector<Parameter> parameters_;
    std::optional<Construction> construction_;
    std::vector<Argument> pending_;  // arguments stated before the construction; an error the core reports
    std::string runtime_only_reason_ = "the factory declares no construction";

    friend class Family;
};

class Family {
public:
    Family(std::string model_type, std::string architecture, SourceSite where = SourceSite::current())
        : model_type_(std::move(model_type)), architecture_(std::move(architecture)), where_(site(where)) {}

    Family& alias(std::string spelling) {
        aliases_.push_back(std::move(spelling));
        return *this;
    }
    Family& directory_alias(std::string directory) {
        directory_aliases_.push_back(std::move(directory));
        return *this;
    }
    // A function this family hands to a component, with the blocks it needs.
    Family& interface(std::vector<SourceBlock> blocks) {
        for (SourceBlock& block : blocks) interface_blocks_.push_back(std::move(block));
        return *this;
    }
    FactoryDecl& factory(std::string target, SourceSite where = SourceSite::current()) {
        return factories_.emplace_back(std::move(target), site(where));
    }
    Family& cp_wrapper(std::string target, Signature options = {}, SourceSite where = SourceSite::current()) {
        cp_wrappers_.push_back({std::move(target), std::move(options), site(where)});
        return *this;
    }
    Family& archetype(ArchetypeDecl archetype, SourceSite where = SourceSite::current()) {
        archetypes_.push_back({std::move(archetype), site(where)});
        return *this;
    }
    // A local_compute_fn target the family ships that is not an MoE archetype.
    Family& compute_function(std::string target) {
        compute_functions_.push_back(std::move(target));
        return *this;
    }

    void register_into(Registrar& registrar) const;

private:
    struct CpWrapperDecl {
        std::string target;
        Signature options;
        std::string where;
    };
    struct SitedArchetype {
        ArchetypeDecl decl;
        std::string where;
    };

    std::string model_type_;
    std::string architecture_;
    std::string where_;
    std::vector<std::string> aliases_;
    std::vector<std::string> directory_aliases_;
    std::vector<SourceBlock> interface_blocks_;
    std::vector<std::string> compute_functions_;
    std::deque<FactoryDecl> factories_;  // deque: references returned by factory() stay valid
    std::vector<CpWrapperDecl> cp_wrappers_;
    std::vector<SitedArchetype> archetypes_;
};

// Generic components that live under one import package.
class Components {
public:
    explicit Components(std::string package) : package_(std::move(package)) {}

    Components& component(ComponentDecl component, SourceSite where = SourceSite::current()) {
        components_.push_back({std::move(component), site(where)});
        return *this;
    }

    void register_into(Registrar& registrar) const;

private:
    struct Sited {
        ComponentDecl decl;
        std::string where;
    };
    std::string package_;
    std::vector<Sited> components_;
};

// ---- the interface objects the builders produce ------------------------------------------------

namespace detail {

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
    DeclaredFactory(std::string family, const FactoryDecl& decl)
        : family_(std::move(family)),
          target_(decl.target()),
          parameters_(decl.parameters()),
          runtime_only_reason_(decl.runtime_only_reason()) {
        if (decl.construction() != nullptr) construction_ = *decl.construction();
    }

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

}  // namespace detail

inline void Family::register_into(Registrar& registrar) const {
    registrar.add_family(
        std::make_shared<detail::DeclaredFamily>(model_type_, architecture_, aliases_, directory_aliases_,
                                                 interface_blocks_, compute_functions_),
        where_);
    for (const FactoryDecl& factory : factories_) {
        if (!factory.pending_.empty()) {
            throw std::logic_error("factory '" + factory.target() + "' (" + factory.where() +
                                   "): arguments were declared before wraps()/replaces()");
        }
        registrar.add_factory(std::make_shared<detail::DeclaredFactory>(model_type_, factory), factory.where());
    }
    for (const CpWrapperDecl& wrapper : cp_wrappers_) {
        registrar.add_cp_wrapper(
            std::make_shared<detail::DeclaredCpWrapper>(model_type_, wrapper.target, wrapper.options.parameters()),
            wrapper.where);
    }
    for (const SitedArchetype& archetype : archetypes_) {
        registrar.add_archetype(std::make_shared<detail::DeclaredArchetype>(model_type_, archetype.decl),
                                archetype.where);
    }
}

inline void Components::register_into(Registrar& registrar) const {
    for (const Sited& component : components_) {
        registrar.add_component(std::make_shared<detail::DeclaredComponent>(package_, component.decl), component.where);
    }
}

}  // namespace famspec::declare
