// The type of a compiled block: a header, then one std::array per row type of BlockRows, sized by
// the counts compile()'s first pass found (table_compiler.hpp), and what a plugin says of itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/table_layout.hpp"

namespace famspec::tables {

// How many rows of each type, and characters, a plugin's block holds: one count per array of
// BlockRows, in its order.
using Counts = std::array<std::uint32_t, BlockRows::count>;

// What a plugin says of itself, as FAMSPEC_PLUGIN writes it: the strings go into the block, the ABI
// into its header.
struct Identity {
    std::string_view name{}, version{}, description{};
    std::string_view compiler = FAMSPEC_COMPILER;
    std::uint16_t abi_major = kAbiMajor;
    std::uint16_t abi_minor = kAbiMinor;
};

namespace detail {

// The arrays of a block, one member each, nested so that the layout stays standard and each array's
// byte offset is a constant: the list of row types is BlockRows, never spelt out here.
template <Counts C, class... Rows>
struct Arrays {
    template <class Row>
    static consteval std::size_t offset_of() {
        static_assert(sizeof(Row) == 0, "not a row type of the block");
        return 0;
    }
};
template <Counts C, class First, class... Rest>
struct Arrays<C, First, Rest...> {
    std::array<First, C[kArrayOf<First>]> rows;
    Arrays<C, Rest...> rest;

    template <class Row>
    constexpr auto& get() {
        if constexpr (std::is_same_v<Row, First>) {
            return rows;
        } else {
            return rest.template get<Row>();
        }
    }
    template <class Row>
    constexpr const auto& get() const {
        if constexpr (std::is_same_v<Row, First>) {
            return rows;
        } else {
            return rest.template get<Row>();
        }
    }
    template <class Row>
    static consteval std::size_t offset_of() {
        if constexpr (std::is_same_v<Row, First>) {
            return offsetof(Arrays, rows);
        } else {
            return offsetof(Arrays, rest) + Arrays<C, Rest...>::template offset_of<Row>();
        }
    }
};

template <Counts C, class List>
struct ArraysOf;
template <Counts C, class... Rows>
struct ArraysOf<C, RowTypes<Rows...>> {
    using type = Arrays<C, Rows...>;
};

}  // namespace detail

// The block for one plugin: the header, then its arrays. Standard layout, so the header can give
// each array's byte offset.
template <Counts C>
struct CompiledTables {
    static constexpr bool fills = true;
    using Storage = typename detail::ArraysOf<C, BlockRows>::type;

    TableHeader header;
    Storage arrays;

    template <class Row>
    constexpr auto& rows() {
        return arrays.template get<Row>();
    }
    template <class Row>
    constexpr const auto& rows() const {
        return arrays.template get<Row>();
    }
    template <class Row>
    static consteval std::size_t offset_of() {
        return offsetof(CompiledTables, arrays) + Storage::template offset_of<Row>();
    }
    constexpr std::string_view text(Text at) const { return {rows<char>().data() + at.offset, at.size}; }
};

}  // namespace famspec::tables
