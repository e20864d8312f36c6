// Reading a plugin's block of tables (famspec/sdk/table_layout.hpp) without trusting it: check()
// proves that the header describes this block, that every array lies inside it, aligned, that the
// characters are UTF-8 without NUL, that every string and list a row names lies inside its array (a
// string on character boundaries), and that every kind a row gives is one its type has, before any
// accessor follows one. A block that fails is refused whole; nothing in it is read past the first
// error. The core's reader, never a plugin's: a plugin only writes the block.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

class TableView {
public:
    // `header` starts `size` readable bytes, aligned for the header (the section read from the file).
    // The view holds a copy of the header as long as the plugin's own (header_size) and at most this
    // ABI's, so that a field an older minor lacks reads as empty and never as the bytes after it.
    TableView(const TableHeader& header, std::size_t size)
        : base_(reinterpret_cast<const char*>(&header)), size_(size) {
        std::uint32_t declared = 0;
        if (size >= offsetof(TableHeader, header_size) + sizeof declared) {
            std::memcpy(&declared, base_ + offsetof(TableHeader, header_size), sizeof declared);
        }
        std::memcpy(static_cast<void*>(&header_), base_, std::min({size, std::size_t{declared}, sizeof(TableHeader)}));
        header_.header_size = declared;
    }

    const TableHeader& header() const { return header_; }

    // Why the block cannot be read, or nothing: call it before any accessor. The magic and the ABI
    // are the loader's to check first (they decide whether this is a block of this layout at all).
    std::optional<std::string> check() const {
        const TableHeader& h = header_;
        if (size_ < kHeaderSizeAbi50) {
            return "a table section of " + std::to_string(size_) + " bytes, shorter than its header's " +
                   std::to_string(kHeaderSizeAbi50);
        }
        if (h.header_size < kHeaderSizeAbi50) {
            return "a table header of " + std::to_string(h.header_size) + " bytes in a section of " +
                   std::to_string(size_) + ", expected at least " + std::to_string(kHeaderSizeAbi50);
        }
        if (h.format != kTableFormat) {
            return "table format " + std::to_string(h.format) + ", expected " + std::to_string(kTableFormat);
        }
        if (h.byte_size < h.header_size || h.byte_size > size_) {
            return "a table block of " + std::to_string(h.byte_size) + " bytes in a section of " +
                   std::to_string(size_);
        }
        if (auto error = sections_fit(BlockRows{})) return error;
        if (auto error = characters_valid()) return error;
        if (!texts_fit({h.name, h.version, h.description, h.compiler})) {
            return std::string("the plugin's name, version, description or compiler lies outside its characters");
        }
        if (!references_fit(BlockRows{}) || !in<ArchetypeRow>(h.archetypes) || !in<CpWrapperRow>(h.cp_wrappers)) {
            return std::string("a table row names a string or list outside its array");
        }
        if (!kinds_known(BlockRows{})) return std::string("a table row gives a kind its type does not have");
        return std::nullopt;
    }

    std::span<const FamilyRow> families() const { return all<FamilyRow>(); }
    std::span<const ComponentRow> components() const { return all<ComponentRow>(); }
    std::span<const BorrowedCpWrapperRow> borrowed_cp_wrappers() const { return all<BorrowedCpWrapperRow>(); }

    std::string_view text(Text at) const {
        if (at.size == 0) return {};  // an empty array's offset is never checked
        return {base_ + header_.array<char>().offset + at.offset, at.size};
    }
    // Rows of one array, by a range a row gives: `view.rows<FactoryRow>(family.factories)`.
    template <class Row>
    std::span<const Row> rows(Range at) const {
        return all<Row>().subspan(at.first, at.count);
    }
    template <class Row>
    std::span<const Row> all() const {
        const Section section = header_.array<Row>();
        if (section.count == 0) return {};  // an empty array may sit anywhere, unaligned
        return {reinterpret_cast<const Row*>(base_ + section.offset), section.count};
    }

private:
    template <class Row>
    bool fits(Section section) const {
        const std::uint64_t end = std::uint64_t{section.offset} + std::uint64_t{section.count} * sizeof(Row);
        if (section.count == 0) return true;
        return section.offset % alignof(Row) == 0 && section.offset >= header_.header_size && end <= header_.byte_size;
    }
    template <class... Rows>
    std::optional<std::string> sections_fit(RowTypes<Rows...>) const {
        if ((fits<Rows>(header_.array<Rows>()) && ...)) return std::nullopt;
        return "a table array lies outside the block of " + std::to_string(header_.byte_size) + " bytes";
    }

    // The characters are UTF-8 (well formed, shortest form, no surrogates) and hold no NUL: every
    // string a host is handed is text it can print and pass on. Strings must also start and end on
    // character boundaries (texts_fit), so each is UTF-8 on its own.
    std::optional<std::string> characters_valid() const {
        const auto* at = reinterpret_cast<const unsigned char*>(base_ + header_.array<char>().offset);
        const std::size_t count = header_.array<char>().count;
        for (std::size_t i = 0; i < count;) {
            const unsigned char lead = at[i];
            std::size_t length = 1;
            std::uint32_t low = 0, high = 0x7F;
            if (lead == 0) return "a NUL byte at character " + std::to_string(i) + " of its strings";
            if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2, low = 0x80, high = 0x7FF;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3, low = 0x800, high = 0xFFFF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4, low = 0x10000, high = 0x10FFFF;
            } else if (lead >= 0x80) {
                return "a string that is not UTF-8 (byte " + std::to_string(i) + " of its strings)";
            }
            std::uint32_t point = length == 1 ? lead : lead & (0x7FU >> length);
            for (std::size_t k = 1; k < length; ++k) {
                if (i + k >= count || !continuation(at[i + k])) {
                    return "a string that is not UTF-8 (byte " + std::to_string(i) + " of its strings)";
                }
                point = (point << 6U) | (at[i + k] & 0x3FU);
            }
            if (point < low || point > high || (point >= 0xD800 && point <= 0xDFFF)) {
                return "a string that is not UTF-8 (byte " + std::to_string(i) + " of its strings)";
            }
            i += length;
        }
        return std::nullopt;
    }
    static bool continuation(unsigned char byte) { return (byte & 0xC0U) == 0x80U; }
    bool on_boundary(std::uint64_t offset) const {
        const Section chars = header_.array<char>();
        if (offset >= chars.count) return true;
        return !continuation(static_cast<unsigned char>(base_[chars.offset + offset]));
    }

    template <class... Rows>
    bool references_fit(RowTypes<Rows...>) const {
        return (rows_fit<Rows>() && ...);
    }
    template <class Row>
    bool rows_fit() const {
        if constexpr (std::is_same_v<Row, char>) {
            return true;
        } else {
            for (const Row& each : all<Row>()) {
                if (!fits(each)) return false;
            }
            return true;
        }
    }
    template <class... Rows>
    bool kinds_known(RowTypes<Rows...>) const {
        return (all_known<Rows>() && ...);
    }
    template <class Row>
    bool all_known() const {
        if constexpr (requires(const Row& row) { known(row); }) {
            for (const Row& each : all<Row>()) {
                if (!known(each)) return false;
            }
        }
        return true;
    }

    bool texts_fit(std::initializer_list<Text> texts) const {
        for (const Text at : texts) {
            const std::uint64_t end = std::uint64_t{at.offset} + at.size;
            if (end > header_.array<char>().count) return false;
            if (at.size > 0 && (!on_boundary(at.offset) || !on_boundary(end))) return false;
        }
        return true;
    }
    template <class Row>
    bool in(Range at) const {
        return std::uint64_t{at.first} + at.count <= header_.array<Row>().count;
    }

    // An enumerator the row's type declares: the block is written by a compiler the core does not
    // control, and every later switch trusts its kinds.
    template <class Enum>
    static bool known(Enum value, Enum last) {
        return static_cast<std::uint64_t>(value) <= static_cast<std::uint64_t>(last);
    }
    static bool known(const LiteralRow& row) { return known(row.kind, LiteralKind::string); }
    static bool known(const ParameterRow& row) {
        return known(row.kind, ParameterKind::keyword_only) && known(row.default_kind, DefaultKind::expression) &&
               known(row.literal);
    }
    static bool known(const ArgumentRow& row) { return known(row.binding, ArgumentBinding::interface); }
    static bool known(const FactoryRow& row) { return known(row.mode, ConstructionMode::wrap_source); }
    static bool known(const ArchetypeRow& row) {
        return known(row.router, MoeRouter::topk_router_module) && known(row.shared_experts, SharedExperts::additive) &&
               known(row.expert_storage, ExpertStorage::batched_parameters) &&
               known(row.kind, ArchetypeKind::moe_ep_routed) && known(row.router_kind, MoeRouter::topk_router_module) &&
               known(row.shared, SharedExperts::additive);
    }

    bool fits(Text at) const { return texts_fit({at}); }
    bool fits(const LiteralRow& row) const { return texts_fit({row.string}); }
    bool fits(const ParameterRow& row) const {
        return texts_fit({row.name, row.literal.string, row.expression}) && in<LiteralRow>(row.allowed);
    }
    bool fits(const ArgumentRow& row) const { return texts_fit({row.keyword, row.value}); }
    bool fits(const FactoryRow& row) const {
        return texts_fit({row.target, row.where, row.component, row.import_module, row.runtime_only_reason}) &&
               in<ArgumentRow>(row.arguments) && in<ParameterRow>(row.options);
    }
    bool fits(const CpWrapperRow& row) const {
        return texts_fit({row.target, row.where}) && in<ParameterRow>(row.options);
    }
    bool fits(const ArchetypeRow& row) const {
        return texts_fit({row.target_class, row.compute_factory, row.where}) &&
               in<Text>(row.strip_boundary_subpatterns) && in<ParameterRow>(row.options);
    }
    bool fits(const SourceBlockRow& row) const {
        return texts_fit({row.text}) && in<Text>(row.defines) && in<Text>(row.needs) && in<Text>(row.imports);
    }
    bool fits(const FamilyRow& row) const {
        return texts_fit({row.model_type, row.architecture, row.where}) && in<Text>(row.aliases) &&
               in<Text>(row.directory_aliases) && in<Text>(row.providers) && in<Text>(row.compute_functions) &&
               in<SourceBlockRow>(row.interface_blocks) && in<FactoryRow>(row.factories) &&
               in<CpWrapperRow>(row.cp_wrappers) && in<ArchetypeRow>(row.archetypes);
    }
    bool fits(const BorrowedCpWrapperRow& row) const { return texts_fit({row.family, row.target}); }
    bool fits(const ComponentRow& row) const {
        return texts_fit({row.import_module, row.name, row.submodule, row.where}) && in<ParameterRow>(row.signature) &&
               in<SourceBlockRow>(row.source);
    }

    TableHeader header_{};
    const char* base_;
    std::size_t size_;
};

}  // namespace famspec::tables
