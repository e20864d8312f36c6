// Reading a plugin's block of tables (table_layout.hpp) without trusting it: check() proves that
// every array lies inside the block, aligned, that every string and list a row names lies inside
// its array, and that every kind a row gives is one its type has, before any accessor follows one. A block that fails
// is refused whole; nothing in it is read past the first error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

class TableView {
public:
    explicit TableView(const TableHeader& header) : header_(header), base_(reinterpret_cast<const char*>(&header)) {}

    // Why the block cannot be read, or nothing: call it before any accessor.
    std::optional<std::string> check() const {
        if (header_.format != kTableFormat) {
            return "table format " + std::to_string(header_.format) + ", expected " + std::to_string(kTableFormat);
        }
        if (header_.byte_size < sizeof(TableHeader)) return std::string("a table block shorter than its header");
        if (auto error = sections_fit()) return error;
        if (auto error = references_fit()) return error;
        if (auto error = kinds_known()) return error;
        return std::nullopt;
    }

    std::span<const FamilyRow> families() const { return all<FamilyRow>(header_.families); }
    std::span<const ComponentRow> components() const { return all<ComponentRow>(header_.components); }

    std::string_view text(Text at) const {
        if (at.size == 0) return {};  // an empty array's offset is never checked
        return {base_ + header_.chars.offset + at.offset, at.size};
    }
    std::span<const Text> texts(Range at) const { return rows<Text>(header_.texts, at); }
    std::span<const LiteralRow> literals(Range at) const { return rows<LiteralRow>(header_.literals, at); }
    std::span<const ParameterRow> parameters(Range at) const { return rows<ParameterRow>(header_.parameters, at); }
    std::span<const ArgumentRow> arguments(Range at) const { return rows<ArgumentRow>(header_.arguments, at); }
    std::span<const FactoryRow> factories(Range at) const { return rows<FactoryRow>(header_.factories, at); }
    std::span<const CpWrapperRow> cp_wrappers(Range at) const { return rows<CpWrapperRow>(header_.cp_wrappers, at); }
    std::span<const ArchetypeRow> archetypes(Range at) const { return rows<ArchetypeRow>(header_.archetypes, at); }
    std::span<const SourceBlockRow> source_blocks(Range at) const {
        return rows<SourceBlockRow>(header_.source_blocks, at);
    }

private:
    template <class Row>
    std::span<const Row> all(Section section) const {
        if (section.count == 0) return {};  // an empty array may sit anywhere, unaligned
        return {reinterpret_cast<const Row*>(base_ + section.offset), section.count};
    }
    template <class Row>
    std::span<const Row> rows(Section section, Range at) const {
        return all<Row>(section).subspan(at.first, at.count);
    }

    template <class Row>
    static bool fits(Section section, std::uint32_t byte_size) {
        const std::uint64_t end = std::uint64_t{section.offset} + std::uint64_t{section.count} * sizeof(Row);
        if (section.count == 0) return true;
        return section.offset % alignof(Row) == 0 && section.offset >= sizeof(TableHeader) && end <= byte_size;
    }
    std::optional<std::string> sections_fit() const {
        const TableHeader& h = header_;
        const std::uint32_t size = h.byte_size;
        const bool all_fit = fits<char>(h.chars, size) && fits<Text>(h.texts, size) &&
                             fits<LiteralRow>(h.literals, size) && fits<ParameterRow>(h.parameters, size) &&
                             fits<ArgumentRow>(h.arguments, size) && fits<FactoryRow>(h.factories, size) &&
                             fits<CpWrapperRow>(h.cp_wrappers, size) && fits<ArchetypeRow>(h.archetypes, size) &&
                             fits<SourceBlockRow>(h.source_blocks, size) && fits<FamilyRow>(h.families, size) &&
                             fits<ComponentRow>(h.components, size);
        if (all_fit) return std::nullopt;
        return std::string("a table array lies outside the block of ") + std::to_string(size) + " bytes";
    }

    // Every Text and Range of every row, against the array it names.
    std::optional<std::string> references_fit() const {
        const TableHeader& h = header_;
        const bool all_fit = rows_fit<Text>(h.texts) && rows_fit<LiteralRow>(h.literals) &&
                             rows_fit<ParameterRow>(h.parameters) && rows_fit<ArgumentRow>(h.arguments) &&
                             rows_fit<FactoryRow>(h.factories) && rows_fit<CpWrapperRow>(h.cp_wrappers) &&
                             rows_fit<ArchetypeRow>(h.archetypes) && rows_fit<SourceBlockRow>(h.source_blocks) &&
                             rows_fit<FamilyRow>(h.families) && rows_fit<ComponentRow>(h.components);
        if (all_fit) return std::nullopt;
        return std::string("a table row names a string or list outside its array");
    }
    // Every kind a row carries is an enumerator of its type: the switches that read them trust it.
    std::optional<std::string> kinds_known() const {
        const TableHeader& h = header_;
        if (all_known<LiteralRow>(h.literals) && all_known<ParameterRow>(h.parameters) &&
            all_known<ArgumentRow>(h.arguments) && all_known<FactoryRow>(h.factories)) {
            return std::nullopt;
        }
        return std::string("a table row gives a kind its type does not have");
    }
    template <class Row>
    bool rows_fit(Section section) const {
        for (const Row& each : all<Row>(section)) {
            if (!fits(each)) return false;
        }
        return true;
    }
    bool texts_fit(std::initializer_list<Text> texts) const {
        for (const Text at : texts) {
            if (std::uint64_t{at.offset} + at.size > header_.chars.count) return false;
        }
        return true;
    }
    static bool in(Range at, Section of) { return std::uint64_t{at.first} + at.count <= of.count; }
    // An enumerator the row's type declares: the block is written by a compiler the core does not
    // control, and every later switch trusts its kinds.
    template <class Enum>
    static bool known(Enum value, Enum last) {
        return static_cast<std::uint64_t>(value) <= static_cast<std::uint64_t>(last);
    }

    static bool known(const LiteralRow& row) { return known(row.kind, LiteralKind::string); }
    static bool known(const ParameterRow& row) {
        return known(row.kind, ParameterKind::keyword_only) && known(row.default_kind, Default::Kind::expression) &&
               known(row.literal);
    }
    static bool known(const ArgumentRow& row) { return known(row.binding, ArgumentBinding::interface); }
    static bool known(const FactoryRow& row) { return known(row.mode, ConstructionMode::wrap_source); }
    template <class Row>
    bool all_known(Section section) const {
        for (const Row& each : all<Row>(section)) {
            if (!known(each)) return false;
        }
        return true;
    }

    bool fits(Text at) const { return texts_fit({at}); }
    bool fits(const LiteralRow& row) const { return texts_fit({row.string}); }
    bool fits(const ParameterRow& row) const {
        return texts_fit({row.name, row.literal.string, row.expression}) && in(row.allowed, header_.literals);
    }
    bool fits(const ArgumentRow& row) const { return texts_fit({row.keyword, row.value}); }
    bool fits(const FactoryRow& row) const {
        return texts_fit({row.target, row.where, row.component, row.import_module, row.runtime_only_reason}) &&
               in(row.arguments, header_.arguments) && in(row.options, header_.parameters);
    }
    bool fits(const CpWrapperRow& row) const {
        return texts_fit({row.target, row.where}) && in(row.options, header_.parameters);
    }
    bool fits(const ArchetypeRow& row) const {
        return texts_fit({row.router, row.shared_experts, row.expert_storage, row.kind, row.target_class,
                          row.router_kind, row.shared, row.compute_factory, row.where}) &&
               in(row.strip_boundary_subpatterns, header_.texts) && in(row.options, header_.parameters);
    }
    bool fits(const SourceBlockRow& row) const {
        return texts_fit({row.text}) && in(row.defines, header_.texts) && in(row.needs, header_.texts) &&
               in(row.imports, header_.texts);
    }
    bool fits(const FamilyRow& row) const {
        const TableHeader& h = header_;
        return texts_fit({row.model_type, row.architecture, row.where}) && in(row.aliases, h.texts) &&
               in(row.directory_aliases, h.texts) && in(row.providers, h.texts) && in(row.compute_functions, h.texts) &&
               in(row.interface_blocks, h.source_blocks) && in(row.factories, h.factories) &&
               in(row.cp_wrappers, h.cp_wrappers) && in(row.archetypes, h.archetypes);
    }
    bool fits(const ComponentRow& row) const {
        return texts_fit({row.import_module, row.name, row.submodule, row.where}) &&
               in(row.signature, header_.parameters) && in(row.source, header_.source_blocks);
    }

    const TableHeader& header_;
    const char* base_;
};

}  // namespace famspec::tables
