// famspec::tables::compile(): a plugin's declarations (table_declarations.hpp) made into the flat
// block of table_layout.hpp while the compiler evaluates them, so that the plugin's binary holds the
// block and no code that builds it.
//
//   constinit const auto tables = famspec::tables::compile([](auto use) { return use(Plugin{...}); });
//
// The declarations are passed through `use` so that their lists live for the whole evaluation: a
// first pass counts the rows and characters, which fixes the type of the result, and a second pass
// writes them. Both passes run the same walk (write() below) over the same declarations, so their
// counts agree. A declaration that contradicts itself stops the compilation, naming the mistake.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "famspec/sdk/table_declarations.hpp"
#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

// How many rows of each type, and characters, a plugin's block holds.
struct Counts {
    std::uint32_t chars = 0, texts = 0, literals = 0, parameters = 0, arguments = 0, factories = 0, cp_wrappers = 0,
                  archetypes = 0, source_blocks = 0, families = 0, components = 0;
};

namespace detail {

// The member of Counts that counts rows of type Row.
template <class Row>
consteval std::uint32_t Counts::*count_of() {
    if constexpr (std::is_same_v<Row, Text>) return &Counts::texts;
    if constexpr (std::is_same_v<Row, LiteralRow>) return &Counts::literals;
    if constexpr (std::is_same_v<Row, ParameterRow>) return &Counts::parameters;
    if constexpr (std::is_same_v<Row, ArgumentRow>) return &Counts::arguments;
    if constexpr (std::is_same_v<Row, FactoryRow>) return &Counts::factories;
    if constexpr (std::is_same_v<Row, CpWrapperRow>) return &Counts::cp_wrappers;
    if constexpr (std::is_same_v<Row, ArchetypeRow>) return &Counts::archetypes;
    if constexpr (std::is_same_v<Row, SourceBlockRow>) return &Counts::source_blocks;
    if constexpr (std::is_same_v<Row, FamilyRow>) return &Counts::families;
    if constexpr (std::is_same_v<Row, ComponentRow>) return &Counts::components;
}

}  // namespace detail

// The block for one plugin. Standard layout, so the header can give each array's byte offset; the
// arrays of 8-byte rows come first, so that none needs padding before it.
template <Counts C>
struct CompiledTables {
    static constexpr bool fills = true;

    TableHeader header;
    std::array<LiteralRow, C.literals> literals;
    std::array<ParameterRow, C.parameters> parameters;
    std::array<Text, C.texts> texts;
    std::array<ArgumentRow, C.arguments> arguments;
    std::array<FactoryRow, C.factories> factories;
    std::array<CpWrapperRow, C.cp_wrappers> cp_wrappers;
    std::array<ArchetypeRow, C.archetypes> archetypes;
    std::array<SourceBlockRow, C.source_blocks> source_blocks;
    std::array<FamilyRow, C.families> families;
    std::array<ComponentRow, C.components> components;
    std::array<char, C.chars> chars;

    template <class Row>
    constexpr auto& rows() {
        if constexpr (std::is_same_v<Row, Text>) return texts;
        if constexpr (std::is_same_v<Row, LiteralRow>) return literals;
        if constexpr (std::is_same_v<Row, ParameterRow>) return parameters;
        if constexpr (std::is_same_v<Row, ArgumentRow>) return arguments;
        if constexpr (std::is_same_v<Row, FactoryRow>) return factories;
        if constexpr (std::is_same_v<Row, CpWrapperRow>) return cp_wrappers;
        if constexpr (std::is_same_v<Row, ArchetypeRow>) return archetypes;
        if constexpr (std::is_same_v<Row, SourceBlockRow>) return source_blocks;
        if constexpr (std::is_same_v<Row, FamilyRow>) return families;
        if constexpr (std::is_same_v<Row, ComponentRow>) return components;
    }
    constexpr std::string_view text(Text at) const { return {chars.data() + at.offset, at.size}; }
};

namespace detail {

// The first pass: nothing is stored, only counted.
struct Counting {
    static constexpr bool fills = false;
};

// Not constexpr on purpose: reaching one during compile() stops the build, and the compiler's
// message names the function, which says what is wrong.
void refused_a_factory_gives_both_constructs_and_runtime_only();
void refused_a_block_larger_than_4_GiB();
void refused_an_amendment_names_no_family_of_this_plugin();
void refused_an_amendment_gives_an_architecture();

// Hands out rows and characters in order, and stores them in the second pass.
template <class Store>
class Writer {
public:
    constexpr explicit Writer(Store& store) : store_(store) {}
    constexpr const Counts& used() const { return next_; }

    // The concatenation of the parts, as one string of the block.
    constexpr Text text(std::string_view first, std::string_view second = {}, std::string_view third = {}) {
        const Text at{next_.chars, static_cast<std::uint32_t>(first.size() + second.size() + third.size())};
        if (static_cast<std::uint64_t>(at.offset) + at.size > UINT32_MAX) refused_a_block_larger_than_4_GiB();
        for (const std::string_view part : {first, second, third}) {
            for (const char c : part) {
                if constexpr (Store::fills) store_.chars[next_.chars] = c;
                ++next_.chars;
            }
        }
        return at;
    }
    template <class Row>
    constexpr Range reserve(std::size_t count) {
        const Range range{next_.*count_of<Row>(), static_cast<std::uint32_t>(count)};
        next_.*count_of<Row>() += range.count;
        return range;
    }
    template <class Row>
    constexpr void put(std::uint32_t at, const Row& row) {
        if constexpr (Store::fills) store_.template rows<Row>()[at] = row;
    }

private:
    Store& store_;
    Counts next_{};
};

template <class W>
constexpr Text row(W& w, std::string_view text) {
    return w.text(text);
}

// A list of declarations as consecutive rows: the range first, so that each row's own lists follow it.
template <class Row, class W, class Decl>
constexpr Range list(W& w, std::initializer_list<Decl> declared) {
    const Range range = w.template reserve<Row>(declared.size());
    std::uint32_t at = range.first;
    for (const Decl& each : declared) w.put(at++, row(w, each));
    return range;
}

template <class W>
constexpr LiteralRow row(W& w, const Literal& literal) {
    return {literal.kind(), literal.integer(), literal.real(), w.text(literal.string())};
}

template <class W>
constexpr ParameterRow row(W& w, const Parameter& parameter) {
    return {w.text(parameter.name),       parameter.kind,
            parameter.default_kind,       row(w, parameter.literal),
            w.text(parameter.expression), list<LiteralRow>(w, parameter.allowed)};
}

// A signature written in order; the parameters after kw_only are keyword-only, and it is no row.
template <class W>
constexpr Range signature(W& w, Signature declared) {
    std::size_t markers = 0;
    for (const Parameter& parameter : declared) markers += parameter.name.empty() ? 1 : 0;
    const Range range = w.template reserve<ParameterRow>(declared.size() - markers);
    std::uint32_t at = range.first;
    bool keyword_only = false;
    for (const Parameter& parameter : declared) {
        if (parameter.name.empty()) {
            keyword_only = true;
            continue;
        }
        ParameterRow written = row(w, parameter);
        if (keyword_only) written.kind = ParameterKind::keyword_only;
        w.put(at++, written);
    }
    return range;
}

template <class W>
constexpr ArgumentRow row(W& w, const Argument& argument) {
    return {w.text(argument.keyword), argument.binding, w.text(argument.value)};
}

template <class W>
constexpr SourceBlockRow row(W& w, const SourceBlock& block) {
    return {list<Text>(w, block.defines), list<Text>(w, block.needs), list<Text>(w, block.imports), w.text(block.text)};
}

template <class W>
constexpr CpWrapperRow row(W& w, const CpWrapper& wrapper) {
    return {w.text(wrapper.target), w.text(wrapper.where), signature(w, wrapper.options)};
}

template <class W>
constexpr ArchetypeRow row(W& w, const Archetype& archetype) {
    const Fingerprint& key = archetype.fingerprint;
    return {w.text(key.router),
            w.text(key.shared_experts),
            w.text(key.expert_storage),
            w.text(archetype.kind),
            w.text(archetype.target_class),
            w.text(archetype.router_kind),
            w.text(archetype.shared),
            w.text(archetype.compute_factory),
            w.text(archetype.where),
            list<Text>(w, archetype.strip_boundary_subpatterns),
            signature(w, archetype.options)};
}

// By index, not string_view::find: under -fsanitize=address GCC cannot compare the pointer find
// returns into a constexpr variable (not a literal) with null during constant evaluation.
constexpr bool has_dot(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '.') return true;
    }
    return false;
}

// As a family is registered: a bare target is placed in the first provider, and a factory
// that constructs nothing is runtime-only.
template <class W>
constexpr FactoryRow factory(W& w, const Factory& declared, std::string_view first_provider) {
    const Constructs& built = declared.constructs;
    const bool constructs = !built.component.empty() || !built.import_module.empty();
    if (constructs && !declared.runtime_only.empty()) refused_a_factory_gives_both_constructs_and_runtime_only();
    const bool bare = !has_dot(declared.target) && !first_provider.empty();
    FactoryRow written{};
    written.target = bare ? w.text(first_provider, ".", declared.target) : w.text(declared.target);
    written.where = w.text(declared.where);
    written.constructs = constructs ? 1 : 0;
    written.module_positional = built.module_positional ? 1 : 0;
    written.mode = built.mode;
    written.component = w.text(built.component);
    written.import_module = w.text(built.import_module);
    written.arguments = list<ArgumentRow>(w, declared.arguments);
    written.options = signature(w, declared.options);
    const std::string_view unsinkable = constructs                      ? std::string_view{}
                                        : declared.runtime_only.empty() ? "the factory declares no construction"
                                                                        : declared.runtime_only;
    written.runtime_only_reason = w.text(unsinkable);
    return written;
}

// The amendments (Plugin::amendments) that add to `family`.
constexpr bool amends(const Family& amendment, const Family& family) {
    return amendment.model_type == family.model_type;
}

// One list of a family as consecutive rows: the family's own entries, then each amendment's, in order.
template <class Row, class W, class Decl, class Make>
constexpr Range merged(W& w, const Family& family, std::initializer_list<Family> amendments,
                       std::initializer_list<Decl> Family::*member, Make make) {
    std::size_t count = (family.*member).size();
    for (const Family& amendment : amendments) count += amends(amendment, family) ? (amendment.*member).size() : 0;
    const Range range = w.template reserve<Row>(count);
    std::uint32_t at = range.first;
    for (const Decl& each : family.*member) w.put(at++, make(each));
    for (const Family& amendment : amendments) {
        if (!amends(amendment, family)) continue;
        for (const Decl& each : amendment.*member) w.put(at++, make(each));
    }
    return range;
}

// The first provider of the family with its amendments: where a bare factory name is placed.
constexpr std::string_view first_provider(const Family& family, std::initializer_list<Family> amendments) {
    if (family.providers.size() > 0) return *family.providers.begin();
    for (const Family& amendment : amendments) {
        if (amends(amendment, family) && amendment.providers.size() > 0) return *amendment.providers.begin();
    }
    return {};
}

template <class W>
constexpr FamilyRow family_row(W& w, const Family& family, std::initializer_list<Family> amendments) {
    const auto as_row = [&w](const auto& each) { return row(w, each); };
    FamilyRow written{w.text(family.model_type), w.text(family.architecture), w.text(family.where)};
    written.aliases = merged<Text>(w, family, amendments, &Family::aliases, as_row);
    written.directory_aliases = merged<Text>(w, family, amendments, &Family::directory_aliases, as_row);
    written.providers = merged<Text>(w, family, amendments, &Family::providers, as_row);
    written.compute_functions = merged<Text>(w, family, amendments, &Family::compute_functions, as_row);
    written.interface_blocks = merged<SourceBlockRow>(w, family, amendments, &Family::interface_blocks, as_row);
    const std::string_view provider = first_provider(family, amendments);
    written.factories = merged<FactoryRow>(w, family, amendments, &Family::factories,
                                           [&w, provider](const Factory& each) { return factory(w, each, provider); });
    written.cp_wrappers = merged<CpWrapperRow>(w, family, amendments, &Family::cp_wrappers, as_row);
    written.archetypes = merged<ArchetypeRow>(w, family, amendments, &Family::archetypes, as_row);
    return written;
}

// Every amendment adds to a family of the same plugin, and leaves its architecture alone.
constexpr void check_amendments(const Plugin& plugin) {
    for (const Family& amendment : plugin.amendments) {
        bool found = false;
        for (const Family& family : plugin.families) found = found || amends(amendment, family);
        if (!found) refused_an_amendment_names_no_family_of_this_plugin();
        if (!amendment.architecture.empty()) refused_an_amendment_gives_an_architecture();
    }
}

template <class W>
constexpr ComponentRow component(W& w, const Component& declared, Text package) {
    return {package,
            w.text(declared.name),
            w.text(declared.submodule),
            w.text(declared.where),
            signature(w, declared.signature),
            list<SourceBlockRow>(w, declared.source)};
}

// The whole plugin: its families (each with its amendments), then its components, each list whole in
// its array.
template <class W>
constexpr void write(W& w, const Plugin& plugin) {
    check_amendments(plugin);
    const Range families = w.template reserve<FamilyRow>(plugin.families.size());
    std::uint32_t at_family = families.first;
    for (const Family& each : plugin.families) w.put(at_family++, family_row(w, each, plugin.amendments));
    std::size_t components = 0;
    for (const Components& group : plugin.components) components += group.components.size();
    std::uint32_t at = w.template reserve<ComponentRow>(components).first;
    for (const Components& group : plugin.components) {
        const Text package = w.text(group.package);
        for (const Component& each : group.components) w.put(at++, component(w, each, package));
    }
}

struct CountRows {
    constexpr Counts operator()(const Plugin& plugin) const {
        Counting counting;
        Writer writer(counting);
        write(writer, plugin);
        return writer.used();
    }
};

template <Counts C>
struct WriteRows {
    constexpr CompiledTables<C> operator()(const Plugin& plugin) const {
        CompiledTables<C> tables{};
        Writer writer(tables);
        write(writer, plugin);
        using T = CompiledTables<C>;
        const auto at = [](std::size_t offset, std::uint32_t count) {
            return Section{static_cast<std::uint32_t>(offset), count};
        };
        tables.header = TableHeader{
            .format = kTableFormat,
            .byte_size = static_cast<std::uint32_t>(sizeof(T)),
            .chars = at(offsetof(T, chars), C.chars),
            .texts = at(offsetof(T, texts), C.texts),
            .literals = at(offsetof(T, literals), C.literals),
            .parameters = at(offsetof(T, parameters), C.parameters),
            .arguments = at(offsetof(T, arguments), C.arguments),
            .factories = at(offsetof(T, factories), C.factories),
            .cp_wrappers = at(offsetof(T, cp_wrappers), C.cp_wrappers),
            .archetypes = at(offsetof(T, archetypes), C.archetypes),
            .source_blocks = at(offsetof(T, source_blocks), C.source_blocks),
            .families = at(offsetof(T, families), C.families),
            .components = at(offsetof(T, components), C.components),
        };
        return tables;
    }
};

}  // namespace detail

// `declare` is a captureless lambda `[](auto use) { return use(Plugin{...}); }`.
template <class Declare>
consteval auto compile(Declare) {
    constexpr Counts counts = Declare{}(detail::CountRows{});
    return Declare{}(detail::WriteRows<counts>{});
}

}  // namespace famspec::tables
