// What a family author writes when a plugin is data: one aggregate per family, factory, wrapper,
// archetype and component, with designated initializers (docs/design/plugin-tables.md).
//
// These types live only while the compiler evaluates famspec::tables::compile(): their lists are
// std::initializer_lists whose arrays last until the end of the one full-expression that declares the
// whole plugin, and compile() copies everything into the flat block of table_layout.hpp before it
// ends. Nothing here is ever in the plugin's binary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "famspec/sdk/argument_binding.hpp"
#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/parameter_kind.hpp"
#include "famspec/sdk/py_none.hpp"
#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

// ---- signatures -------------------------------------------------------------------------------

class Literal {
public:
    constexpr Literal() = default;
    constexpr Literal(PyNone) {}                                                               // NOLINT
    constexpr Literal(bool value) : kind_(LiteralKind::boolean), integer_(value) {}            // NOLINT
    constexpr Literal(int value) : kind_(LiteralKind::integer), integer_(value) {}             // NOLINT
    constexpr Literal(std::int64_t value) : kind_(LiteralKind::integer), integer_(value) {}    // NOLINT
    constexpr Literal(double value) : kind_(LiteralKind::real), real_(value) {}                // NOLINT
    constexpr Literal(const char* value) : kind_(LiteralKind::string), string_(value) {}       // NOLINT
    constexpr Literal(std::string_view value) : kind_(LiteralKind::string), string_(value) {}  // NOLINT

    constexpr LiteralKind kind() const { return kind_; }
    constexpr std::int64_t integer() const { return integer_; }
    constexpr double real() const { return real_; }
    constexpr std::string_view string() const { return string_; }

private:
    LiteralKind kind_ = LiteralKind::none;
    std::int64_t integer_ = 0;
    double real_ = 0;
    std::string_view string_{};
};

struct Parameter {
    std::string_view name{};
    ParameterKind kind = ParameterKind::positional_or_keyword;
    DefaultKind default_kind = DefaultKind::required;
    Literal literal{};
    std::string_view expression{};
    std::initializer_list<Literal> allowed{};  // a Python Literal[...]: the values a plan may set
};

// The bare `*` of a Python signature: the parameters after it are keyword-only. A nameless
// parameter, so it cannot be mistaken for one (the core refuses an unnamed parameter).
inline constexpr Parameter kw_only{.kind = ParameterKind::keyword_only};

// A default that is a Python expression but not a literal, e.g. a function object.
struct Expression {
    std::string_view source;
};
constexpr Expression expression(std::string_view source) { return {source}; }

// The values of a Python `Literal[...]` type: param("backend", "npu", one_of{"npu", "sdpa"}).
struct one_of {
    constexpr one_of(std::initializer_list<Literal> listed) : values(listed) {}
    std::initializer_list<Literal> values;
};

constexpr Parameter param(std::string_view name) { return {.name = name}; }
constexpr Parameter param(std::string_view name, Literal fallback) {
    return {.name = name, .default_kind = DefaultKind::literal, .literal = fallback};
}
constexpr Parameter param(std::string_view name, Literal fallback, one_of allowed) {
    return {.name = name, .default_kind = DefaultKind::literal, .literal = fallback, .allowed = allowed.values};
}
constexpr Parameter param(std::string_view name, Expression fallback) {
    return {.name = name, .default_kind = DefaultKind::expression, .expression = fallback.source};
}

// A signature written in place, `.signature = {kw_only, param("module")}`, or named once and shared
// by several declarations: `constexpr Parameter wrapper[] = {kw_only, param("module")};` at namespace
// scope, then `.signature = wrapper`. A named std::initializer_list would not do (GCC 12 refuses one
// in a constant expression), and for the same reason a named signature lists no one_of values.
class Signature {
public:
    constexpr Signature() = default;
    constexpr Signature(std::initializer_list<Parameter> listed) : listed_(listed) {}  // NOLINT: a braced list
    template <std::size_t N>
    constexpr Signature(const Parameter (&named)[N]) : named_(named), named_size_(N) {}  // NOLINT: a named one

    constexpr const Parameter* begin() const { return named_ != nullptr ? named_ : listed_.begin(); }
    constexpr const Parameter* end() const { return begin() + size(); }
    constexpr std::size_t size() const { return named_ != nullptr ? named_size_ : listed_.size(); }

private:
    std::initializer_list<Parameter> listed_{};
    const Parameter* named_ = nullptr;
    std::size_t named_size_ = 0;
};
using Names = std::initializer_list<std::string_view>;

struct SourceBlock {
    Names defines{};  // top-level names the block binds
    Names needs{};    // module-scope names it reads that it does not bind itself
    Names imports{};  // import lines it needs
    std::string_view text{};
};

// ---- replacement factories --------------------------------------------------------------------

// What a factory constructs; the keyword arguments are the factory's own `arguments`.
struct Constructs {
    std::string_view component{};
    std::string_view import_module{};
    ConstructionMode mode = ConstructionMode::wrap_source;
    bool module_positional = false;
};
// Cls(module=module, ...): the source instance is kept as the wrapper input.
constexpr Constructs wraps(std::string_view component, std::string_view from) { return {component, from}; }
// Cls(module, ...): still a wrap, with the module handed over positionally.
constexpr Constructs wraps_positionally(std::string_view component, std::string_view from) {
    return {component, from, ConstructionMode::wrap_source, true};
}
// Cls(original args): a swap by name; the source class is removed.
constexpr Constructs replaces(std::string_view component, std::string_view from) {
    return {component, from, ConstructionMode::name, false};
}

struct Argument {
    std::string_view keyword;
    ArgumentBinding binding = ArgumentBinding::parameter;
    std::string_view value;
};
// keyword=<factory parameter>: rendered as the component default, or as a plan option.
constexpr Argument bind(std::string_view keyword) { return {keyword, ArgumentBinding::parameter, keyword}; }
constexpr Argument bind(std::string_view keyword, std::string_view parameter) {
    return {keyword, ArgumentBinding::parameter, parameter};
}
// keyword=<python source>, rendered as written.
constexpr Argument pass(std::string_view keyword, std::string_view source) {
    return {keyword, ArgumentBinding::literal, source};
}
// keyword=<family function>: the component is rendered into the artifact with that function.
constexpr Argument hand_over(std::string_view keyword, std::string_view function) {
    return {keyword, ArgumentBinding::interface, function};
}

// `target` is the full dotted path, or a bare name in the family's first provider. Give either
// `constructs` (and its `arguments`) or `runtime_only`, the reason there is nothing to sink.
// `where` names the declaration in messages; `famspec sync` writes the runtime source's file:line.
struct Factory {
    std::string_view target{};
    Constructs constructs{};
    std::initializer_list<Argument> arguments{};
    Signature options{};  // static options a plan may set, after module, module_fqn and context
    std::string_view runtime_only{};
    std::string_view where{};
};

// ---- families and components --------------------------------------------------------------------

struct CpWrapper {
    std::string_view target{};
    Signature options{};
    std::string_view where{};
};

// The words of an archetype, as an author writes them inside FAMSPEC_PLUGIN.
using famspec::ArchetypeKind;
using famspec::ExpertStorage;
using famspec::MoeRouter;
using famspec::SharedExperts;

// The structure key detected on a MoE block: `.fingerprint = {.router = MoeRouter::topk_router_module,
// .shared_experts = SharedExperts::none, .expert_storage = ExpertStorage::batched_parameters}`.
struct Fingerprint {
    MoeRouter router = MoeRouter::softmax_topk;
    SharedExperts shared_experts = SharedExperts::none;
    ExpertStorage expert_storage = ExpertStorage::module_list;
};

struct Archetype {
    Fingerprint fingerprint{};
    ArchetypeKind kind = ArchetypeKind::moe_ep_routed;
    std::string_view target_class{};
    MoeRouter router_kind = MoeRouter::softmax_topk;  // the runtime router adapter
    SharedExperts shared = SharedExperts::none;       // how the shared branch merges
    Names strip_boundary_subpatterns{};
    std::string_view compute_factory{};
    Signature options{};
    std::string_view where{};
};

struct Family {
    std::string_view model_type{};
    std::string_view architecture{};
    std::string_view where{};
    Names aliases{};
    Names directory_aliases{};
    Names providers{};  // modules that hold the factories; the first places a bare factory name
    std::initializer_list<SourceBlock> interface_blocks{};  // functions handed to components, and helpers
    Names compute_functions{};                              // local_compute_fn targets that are not archetypes
    std::initializer_list<Factory> factories{};
    std::initializer_list<CpWrapper> cp_wrappers{};
    std::initializer_list<Archetype> archetypes{};
    // Targets of CP wrappers another family's plugin declares, in a context-parallel provider this
    // family borrows from that family: they answer for this family too, and stay the other's.
    Names borrowed_cp_wrappers{};
};

struct Component {
    std::string_view name{};
    std::string_view submodule{};  // the defining module is <package>.<submodule>
    Signature signature{};
    std::initializer_list<SourceBlock> source{};  // class block and helpers; empty if never rendered
    std::string_view where{};
};

// Generic components that live under one import package.
struct Components {
    std::string_view package{};
    std::initializer_list<Component> components{};
};

// Everything one plugin declares. `archetypes` and `cp_wrappers` are the framework's own, owned by no
// family: they answer whatever family a plan names. An entry of `amendments` adds to the entry of
// `families` with the same model_type: its aliases, directory aliases, providers, interface blocks,
// compute functions, factories, CP wrappers, archetypes and borrowed CP wrappers follow that
// family's own, as if written there. It lets a
// file whose `families` are generated (`famspec sync` rewrites its region, which ends before
// `.amendments`) keep declarations written by hand. An amendment names no architecture, and one
// naming no family of this plugin stops the build.
struct Plugin {
    std::initializer_list<Family> families{};
    std::initializer_list<Components> components{};
    std::initializer_list<Archetype> archetypes{};
    std::initializer_list<CpWrapper> cp_wrappers{};
    std::initializer_list<Family> amendments{};
};

}  // namespace famspec::tables
