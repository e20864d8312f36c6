// Declarative builders: a family plugin states what its family is and what each target declares,
// and these turn the statements into the interface objects the core asks. This is what an author
// reads; the objects they produce are in famspec/sdk/detail/declared.hpp.
#pragma once

#include <deque>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "famspec/sdk/detail/factory_data.hpp"
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
// The values of a Python `Literal[...]` type: param("backend", "npu", one_of{"npu", "sdpa"}).
struct one_of {
    std::vector<PyLiteral> values;
    one_of(std::initializer_list<PyLiteral> listed) : values(listed) {}
};
inline Parameter param(std::string name, PyLiteral fallback, one_of allowed) {
    return {std::move(name), ParameterKind::positional_or_keyword, Default::literal(std::move(fallback)),
            std::move(allowed.values)};
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
    // Parameters whose kinds are already final, e.g. read back from a plugin's tables.
    explicit Signature(std::vector<Parameter> parameters) : parameters_(std::move(parameters)) {}
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

inline std::string site(const SourceSite& where) { return std::string(where.file) + ":" + std::to_string(where.line); }

// ---- archetypes and components ---------------------------------------------------------------------

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

// ---- replacement factories --------------------------------------------------------------------
//
// A typestate: Family::factory() gives a FactoryDecl, which says what the factory constructs;
// only the ConstructionDecl that wraps()/replaces() return takes keyword arguments. So
// `family.factory(t).bind("dim")` does not compile: an argument needs a construction to belong to.

class ConstructionDecl {
public:
    // keyword=<factory parameter>: rendered as the component default, or as a plan option.
    ConstructionDecl bind(std::string keyword) {
        std::string parameter = keyword;
        return bind(std::move(keyword), std::move(parameter));
    }
    ConstructionDecl bind(std::string keyword, std::string parameter) {
        return argument({std::move(keyword), ArgumentBinding::parameter, std::move(parameter)});
    }
    // keyword=<python source>, rendered as written.
    ConstructionDecl pass(std::string keyword, std::string source) {
        return argument({std::move(keyword), ArgumentBinding::literal, std::move(source)});
    }
    // keyword=<family function>: the component is rendered into the artifact with that function.
    ConstructionDecl hand_over(std::string keyword, std::string function) {
        return argument({std::move(keyword), ArgumentBinding::interface, std::move(function)});
    }
    // A further factory parameter (a static option a plan may set).
    ConstructionDecl option(std::string name, PyLiteral fallback) {
        factory_->add_option(std::move(name), std::move(fallback));
        return *this;
    }

private:
    friend class FactoryDecl;
    explicit ConstructionDecl(detail::FactoryData& factory) : factory_(&factory) {}
    ConstructionDecl argument(Argument argument) {
        factory_->construction->arguments.push_back(std::move(argument));
        return *this;
    }

    detail::FactoryData* factory_;
};

class FactoryDecl {
public:
    // Cls(module=module, ...): the source instance is kept as the wrapper input.
    ConstructionDecl wraps(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::wrap_source, false);
    }
    // Cls(module, ...): still a wrap, with the module handed over positionally.
    ConstructionDecl wraps_positionally(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::wrap_source, true);
    }
    // Cls(original args): a swap by name; the source class is removed.
    ConstructionDecl replaces(std::string component, std::string from) {
        return constructs(std::move(component), std::move(from), ConstructionMode::name, false);
    }
    // A further factory parameter (a static option a plan may set).
    FactoryDecl option(std::string name, PyLiteral fallback) {
        factory_->add_option(std::move(name), std::move(fallback));
        return *this;
    }
    // The factory builds at runtime only (e.g. Cls.from_module): there is nothing to sink.
    void runtime_only(std::string reason) {
        factory_->construction.reset();
        factory_->runtime_only_reason = std::move(reason);
    }

private:
    friend class Family;
    explicit FactoryDecl(detail::FactoryData& factory) : factory_(&factory) {}
    ConstructionDecl constructs(std::string component, std::string from, ConstructionMode mode, bool positional) {
        factory_->construction = Construction{std::move(component), std::move(from), mode, positional, {}};
        factory_->runtime_only_reason.clear();
        return ConstructionDecl(*factory_);
    }

    detail::FactoryData* factory_;
};

// ---- families and components ---------------------------------------------------------------------

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
    // A module that holds the family's replacement factories. Declare one per layout the runtime
    // uses (e.g. adapter.replacements and adapter.conversion.module_replacement): every factory then
    // resolves under each, and factory() may name a factory by its bare name (placed in the first).
    Family& provider(std::string module, SourceSite where = SourceSite::current()) {
        providers_.push_back({std::move(module), site(where)});
        return *this;
    }
    // A function this family hands to a component, with the blocks it needs.
    Family& interface(std::vector<SourceBlock> blocks) {
        for (SourceBlock& block : blocks) interface_blocks_.push_back(std::move(block));
        return *this;
    }
    // `target` is the full dotted path, or a bare name in the first provider() module.
    FactoryDecl factory(std::string target, SourceSite where = SourceSite::current()) {
        return FactoryDecl(factories_.emplace_back(std::move(target), site(where)));
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
    struct ProviderDecl {
        std::string module;
        std::string where;
    };
    std::string qualified(const std::string& target) const {
        if (target.find('.') != std::string::npos || providers_.empty()) return target;
        return providers_.front().module + "." + target;
    }

    std::string model_type_;
    std::string architecture_;
    std::string where_;
    std::vector<std::string> aliases_;
    std::vector<std::string> directory_aliases_;
    std::vector<SourceBlock> interface_blocks_;
    std::vector<std::string> compute_functions_;
    std::deque<detail::FactoryData> factories_;  // deque: what factory() handed out stays valid
    std::vector<CpWrapperDecl> cp_wrappers_;
    std::vector<SitedArchetype> archetypes_;
    std::vector<ProviderDecl> providers_;
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

}  // namespace famspec::declare

#include "famspec/sdk/detail/declared.hpp"
