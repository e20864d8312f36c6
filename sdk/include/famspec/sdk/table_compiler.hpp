// famspec::tables::compile(): a plugin's declarations (table_declarations.hpp) made into the flat
// block of table_layout.hpp while the compiler evaluates them, so that the plugin's binary holds the
// block and no code that builds it.
//
//   constexpr auto tables = famspec::tables::compile([](auto use) { return use(Identity{...}, Plugin{...}); });
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

#include "famspec/sdk/compiled_tables.hpp"
#include "famspec/sdk/table_declarations.hpp"
#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

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
        std::uint32_t& chars = next_[kArrayOf<char>];
        const Text at{chars, static_cast<std::uint32_t>(first.size() + second.size() + third.size())};
        if (static_cast<std::uint64_t>(at.offset) + at.size > UINT32_MAX) refused_a_block_larger_than_4_GiB();
        for (const std::string_view part : {first, second, third}) {
            for (const char c : part) {
                if constexpr (Store::fills) store_.template rows<char>()[chars] = c;
                ++chars;
            }
        }
        return at;
    }
    template <class Row>
    constexpr Range reserve(std::size_t count) {
        const Range range{next_[kArrayOf<Row>], static_cast<std::uint32_t>(count)};
        next_[kArrayOf<Row>] += range.count;
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
    return {.router = key.router,
            .shared_experts = key.shared_experts,
            .expert_storage = key.expert_storage,
            .kind = archetype.kind,
            .router_kind = archetype.router_kind,
            .shared = archetype.shared,
            .target_class = w.text(archetype.target_class),
            .compute_factory = w.text(archetype.compute_factory),
            .where = w.text(archetype.where),
            .strip_boundary_subpatterns = list<Text>(w, archetype.strip_boundary_subpatterns),
            .options = signature(w, archetype.options)};
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

// The CP wrappers each family borrows, its amendments' after its own, as one top-level array.
template <class W>
constexpr void borrowed_cp_wrappers(W& w, const Plugin& plugin) {
    std::size_t count = 0;
    for (const Family& family : plugin.families) count += family.borrowed_cp_wrappers.size();
    for (const Family& amendment : plugin.amendments) count += amendment.borrowed_cp_wrappers.size();
    std::uint32_t at = w.template reserve<BorrowedCpWrapperRow>(count).first;
    for (const Family& family : plugin.families) {
        const auto put = [&](const Family& declaring) {
            for (const std::string_view target : declaring.borrowed_cp_wrappers) {
                w.put(at++, BorrowedCpWrapperRow{w.text(family.model_type), w.text(target)});
            }
        };
        put(family);
        for (const Family& amendment : plugin.amendments) {
            if (amends(amendment, family)) put(amendment);
        }
    }
}

// What the header holds besides the arrays: the identity's strings and the framework's ranges.
struct HeaderFields {
    Text name, version, description, compiler;
    Range archetypes, cp_wrappers;
};

// The whole plugin: its identity, its families (each with its amendments), its components, the
// framework's archetypes and CP wrappers, then the borrowed CP wrappers, each list whole in its array.
template <class W>
constexpr HeaderFields write(W& w, const Identity& identity, const Plugin& plugin) {
    check_amendments(plugin);
    HeaderFields fields{w.text(identity.name),
                        w.text(identity.version),
                        w.text(identity.description),
                        w.text(identity.compiler),
                        {},
                        {}};
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
    fields.archetypes = list<ArchetypeRow>(w, plugin.archetypes);
    fields.cp_wrappers = list<CpWrapperRow>(w, plugin.cp_wrappers);
    borrowed_cp_wrappers(w, plugin);
    return fields;
}

// The header's section of each array of BlockRows.
template <class T, class... Rows>
constexpr void place_arrays(TableHeader& header, const Counts& counts, RowTypes<Rows...>) {
    ((header.array<Rows>() =
          Section{static_cast<std::uint32_t>(T::template offset_of<Rows>()), counts[kArrayOf<Rows>]}),
     ...);
}

struct CountRows {
    constexpr Counts operator()(const Identity& identity, const Plugin& plugin) const {
        Counting counting;
        Writer writer(counting);
        write(writer, identity, plugin);
        return writer.used();
    }
};

template <Counts C>
struct WriteRows {
    constexpr CompiledTables<C> operator()(const Identity& identity, const Plugin& plugin) const {
        using T = CompiledTables<C>;
        T tables{};
        Writer writer(tables);
        const HeaderFields fields = write(writer, identity, plugin);
        TableHeader& header = tables.header;
        header.abi_major = identity.abi_major;
        header.abi_minor = identity.abi_minor;
        header.header_size = sizeof(TableHeader);
        header.byte_size = static_cast<std::uint32_t>(sizeof(T));
        header.name = fields.name;
        header.version = fields.version;
        header.description = fields.description;
        header.compiler = fields.compiler;
        header.archetypes = fields.archetypes;
        header.cp_wrappers = fields.cp_wrappers;
        place_arrays<T>(header, C, BlockRows{});
        return tables;
    }
};

}  // namespace detail

// `declare` is a captureless lambda `[](auto use) { return use(Identity{...}, Plugin{...}); }`.
template <class Declare>
consteval auto compile(Declare) {
    // The counts go straight into the template argument: GCC 12 will not take an array-valued
    // constexpr local there.
    return Declare{}(detail::WriteRows<Declare{}(detail::CountRows{})>{});
}

}  // namespace famspec::tables
