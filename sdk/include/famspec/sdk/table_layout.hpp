// The flat, constant tables a plugin hands to the core: what crosses the boundary once a plugin is
// data (docs/design/plugin-tables.md).
//
// One block of read-only data: a header, then one array per row type, then the characters of every
// string. Rows name strings and lists by offset and count into those arrays, never by pointer, so the
// block needs no relocation (it lies in .rodata, its pages shared and clean) and the core can check
// every reference against the block's size before it follows one. Every row is plain integers, in a
// layout that does not depend on the standard library. famspec::tables::compile() (table_compiler.hpp)
// writes the block at compile time from the declarations of table_declarations.hpp.
#pragma once

#include <cstdint>

#include "famspec/sdk/construction.hpp"
#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec::tables {

// Bumped with any change to a row or to the header; the core refuses a format it does not know.
inline constexpr std::uint32_t kTableFormat = 1;

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
    Default::Kind default_kind = Default::Kind::required;
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

// A replacement factory (famspec::ReplacementFactory). Its parameters are module, module_fqn and
// context, which every factory takes, then `options`; the target is fully qualified.
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

// A context-parallel wrapper (famspec::CpWrapper).
struct CpWrapperRow {
    Text target{};
    Text where{};
    Range options{};  // ParameterRows
};

// A routed-MoE archetype (famspec::MoeArchetype).
struct ArchetypeRow {
    Text router{}, shared_experts{}, expert_storage{};  // the fingerprint
    Text kind{}, target_class{}, router_kind{}, shared{}, compute_factory{}, where{};
    Range strip_boundary_subpatterns{};  // Texts
    Range options{};                     // ParameterRows
};

// A block of Python source (famspec::SourceBlock); the lists are Texts.
struct SourceBlockRow {
    Range defines{}, needs{}, imports{};
    Text text{};
};

// A family (famspec::FamilyAdapter) and everything it declares. Its own lists are Texts, except
// interface_blocks (SourceBlockRows) and the declarations, each of its own row type.
struct FamilyRow {
    Text model_type{}, architecture{}, where{};
    Range aliases{}, directory_aliases{}, providers{}, compute_functions{};
    Range interface_blocks{};
    Range factories{}, cp_wrappers{}, archetypes{};
};

// A generic component (famspec::Component); its defining module is import_module.submodule.
struct ComponentRow {
    Text import_module{}, name{}, submodule{}, where{};
    Range signature{};  // ParameterRows
    Range source{};     // SourceBlockRows
};

// Where one array lies: its byte offset from the start of the header, and its number of rows.
struct Section {
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
};

// The start of the block. `families` and `components` are the plugin's top-level lists: all the
// rows of their arrays.
struct TableHeader {
    std::uint32_t format = kTableFormat;
    std::uint32_t byte_size = 0;  // of the whole block, header included
    Section chars, texts, literals, parameters, arguments, factories, cp_wrappers, archetypes, source_blocks, families,
        components;
};

}  // namespace famspec::tables
