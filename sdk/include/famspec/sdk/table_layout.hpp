// The flat, constant tables a plugin hands to the core: the whole plugin, as data
// (docs/design/plugin-tables.md).
//
// One block of read-only data, the contents of the plugin file's `.famspec_tables` section: a header
// (the plugin's identity and what it was built for), then one array per row type, then the characters
// of every string. Rows name strings and lists by offset and count into those arrays, never by
// pointer, so the block needs no relocation and the core can read it straight from the file,
// checking every reference against the block's size before it follows one. Every row is plain
// integers, in a layout that depends on neither the compiler nor its standard library: only on the
// word size and byte order, which the header states. famspec::tables::compile() (table_compiler.hpp)
// writes the block at compile time from the declarations of table_declarations.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/argument_binding.hpp"
#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/moe_vocabulary.hpp"
#include "famspec/sdk/parameter_kind.hpp"

namespace famspec::tables {

// Bumped with any change to a row or to the header's fields before `header_size` says where it ends;
// the core refuses a format it does not know. Fields appended to the header, and arrays appended to
// BlockRows, are an ABI minor's: the format stays.
inline constexpr std::uint32_t kTableFormat = 2;

// A string: its characters in the block's character array.
struct Text {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

// A list: `count` consecutive rows of one array, from `first`.
struct Range {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

// A Python literal (PyLiteral's five alternatives); a bool is stored in `integer`.
enum class LiteralKind : std::uint8_t { none, boolean, integer, real, string };
struct LiteralRow {
    LiteralKind kind = LiteralKind::none;
    std::int64_t integer = 0;
    double real = 0;
    Text string{};
};

// A parameter of a Python signature (famspec::Parameter); `allowed` are LiteralRows.
struct ParameterRow {
    Text name{};
    ParameterKind kind = ParameterKind::positional_or_keyword;
    DefaultKind default_kind = DefaultKind::required;
    LiteralRow literal{};  // when default_kind is literal
    Text expression{};     // when default_kind is expression
    Range allowed{};
};

// A keyword argument of a construction (famspec::Argument).
struct ArgumentRow {
    Text keyword{};
    ArgumentBinding binding = ArgumentBinding::parameter;
    Text value{};
};

// A replacement factory. Its parameters are module, module_fqn and context, which every factory
// takes, then `options`; the target is fully qualified.
struct FactoryRow {
    Text target{};
    Text where{};
    std::uint8_t constructs = 0;  // 0: runtime only, for runtime_only_reason
    std::uint8_t module_positional = 0;
    ConstructionMode mode = ConstructionMode::wrap_source;
    Text component{};
    Text import_module{};
    Range arguments{};  // ArgumentRows
    Range options{};    // ParameterRows
    Text runtime_only_reason{};
};

// A context-parallel wrapper.
struct CpWrapperRow {
    Text target{};
    Text where{};
    Range options{};  // ParameterRows
};

// A routed-MoE archetype: the structure key it is detected by, then what it stands for.
struct ArchetypeRow {
    MoeRouter router = MoeRouter::softmax_topk;
    SharedExperts shared_experts = SharedExperts::none;
    ExpertStorage expert_storage = ExpertStorage::module_list;
    ArchetypeKind kind = ArchetypeKind::moe_ep_routed;
    MoeRouter router_kind = MoeRouter::softmax_topk;
    SharedExperts shared = SharedExperts::none;
    Text target_class{}, compute_factory{}, where{};
    Range strip_boundary_subpatterns{};  // Texts
    Range options{};                     // ParameterRows
};

// A block of Python source; the lists are Texts.
struct SourceBlockRow {
    Range defines{}, needs{}, imports{};
    Text text{};
};

// A family and everything it declares. Its own lists are Texts, except interface_blocks
// (SourceBlockRows) and the declarations, each of its own row type.
struct FamilyRow {
    Text model_type{}, architecture{}, where{};
    Range aliases{}, directory_aliases{}, providers{}, compute_functions{};
    Range interface_blocks{};
    Range factories{}, cp_wrappers{}, archetypes{};
};

// A generic component; its defining module is import_module.submodule.
struct ComponentRow {
    Text import_module{}, name{}, submodule{}, where{};
    Range signature{};  // ParameterRows
    Range source{};     // SourceBlockRows
};

// A CP wrapper another family's plugin declares that also answers for `family`, a family of this
// plugin whose context-parallel provider is the other family's module (ABI 5.1). It claims nothing:
// the wrapper stays the lending family's.
struct BorrowedCpWrapperRow {
    Text family{}, target{};
};

// The block's arrays, one per row type, written once: their order in the block (the arrays of
// 8-byte rows first, so that none needs padding before it, the characters last, then each array an
// ABI minor added, so that an older array keeps its index) and the index of each one's Section in
// the header. The compiler, the view and the core all go by this list.
template <class... Rows>
struct RowTypes {
    static constexpr std::size_t count = sizeof...(Rows);
};
using BlockRows = RowTypes<LiteralRow, ParameterRow, Text, ArgumentRow, FactoryRow, CpWrapperRow, ArchetypeRow,
                           SourceBlockRow, FamilyRow, ComponentRow, char, BorrowedCpWrapperRow>;

template <class Row, class First, class... Rest>
consteval std::size_t index_in(RowTypes<First, Rest...>) {
    if constexpr (std::is_same_v<Row, First>) {
        return 0;
    } else {
        static_assert(sizeof...(Rest) > 0, "not a row type of the block");
        return 1 + index_in<Row>(RowTypes<Rest...>{});
    }
}
// The index of Row's array among BlockRows.
template <class Row>
inline constexpr std::size_t kArrayOf = index_in<Row>(BlockRows{});

// Where one array lies: its byte offset from the start of the header, and its number of rows.
struct Section {
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
};

// Read in the host's byte order, 0x01020304 when the plugin's order is the host's.
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;
inline constexpr std::uint16_t kWordBits = sizeof(void*) * 8;

// The start of the block. The first four fields keep their offsets in every ABI, so that any core
// reads the magic and the ABI before anything else. `families`, `components` and the borrowed CP
// wrappers (the FamilyRow, ComponentRow and BorrowedCpWrapperRow arrays) are the plugin's top-level
// lists: all the rows of their arrays. The framework's archetypes and CP wrappers, owned by no
// family, are top-level too, as ranges of arrays family rows share.
//
// An ABI minor appends fields; `header_size` says which the plugin has, and a field past it reads
// as empty. ABI 5.0's header ends before the borrowed wrappers' Section (kHeaderSizeAbi50).
struct TableHeader {
    std::uint64_t magic = kPluginMagic;
    std::uint16_t abi_major = kAbiMajor;
    std::uint16_t abi_minor = kAbiMinor;
    std::uint32_t header_size = 0;  // sizeof(TableHeader) of the plugin's SDK
    std::uint32_t byte_order = kByteOrderMark;
    std::uint16_t word_bits = kWordBits;
    std::uint16_t reserved = 0;
    std::uint32_t format = kTableFormat;
    std::uint32_t byte_size = 0;  // of the whole block, header included
    Text name{}, version{}, description{}, compiler{};
    Section arrays[BlockRows::count] = {};
    // ABI 5.1: the framework's own declarations, which belong to no family.
    Range archetypes{};   // ArchetypeRows
    Range cp_wrappers{};  // CpWrapperRows

    template <class Row>
    constexpr Section& array() {
        return arrays[kArrayOf<Row>];
    }
    template <class Row>
    constexpr const Section& array() const {
        return arrays[kArrayOf<Row>];
    }
};

// The header of an ABI 5.0 plugin: every field before the borrowed wrappers' Section.
inline constexpr std::uint32_t kHeaderSizeAbi50 =
    offsetof(TableHeader, arrays) + sizeof(Section) * kArrayOf<BorrowedCpWrapperRow>;
static_assert(kHeaderSizeAbi50 == 152, "ABI 5.0's header is 152 bytes");

// The fixed prefix a core of any ABI reads first.
static_assert(offsetof(TableHeader, magic) == 0 && offsetof(TableHeader, abi_major) == 8 &&
              offsetof(TableHeader, abi_minor) == 10 && offsetof(TableHeader, header_size) == 12);

}  // namespace famspec::tables
