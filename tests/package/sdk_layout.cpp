// Prints the layout of every SDK type a plugin hands to the core (its table header and rows, and the
// words they use), of the declarations the core hands to hosts (core/include), and the build
// fingerprint, one line each. The package tests compile it with
// each supported compiler and compare: a type whose layout depended on the compiler would show here before it broke a
// plugin.
#include <cstddef>
#include <cstdio>

#include "famspec/component.hpp"
#include "famspec/cp_wrapper.hpp"
#include "famspec/family_adapter.hpp"
#include "famspec/moe_archetype.hpp"
#include "famspec/replacement_factory.hpp"
#include "famspec/sdk.hpp"

namespace {

template <typename T>
void size_of(const char* name) {
    std::printf("%s size %zu align %zu\n", name, sizeof(T), alignof(T));
}

}  // namespace

#define FIELD(type, member) std::printf(#type "::" #member " offset %zu\n", offsetof(type, member))

int main() {
    namespace rows = famspec::tables;
    size_of<rows::TableHeader>("TableHeader");
    FIELD(rows::TableHeader, magic);
    FIELD(rows::TableHeader, abi_major);
    FIELD(rows::TableHeader, abi_minor);
    FIELD(rows::TableHeader, header_size);
    FIELD(rows::TableHeader, byte_order);
    FIELD(rows::TableHeader, word_bits);
    FIELD(rows::TableHeader, format);
    FIELD(rows::TableHeader, byte_size);
    FIELD(rows::TableHeader, name);
    FIELD(rows::TableHeader, arrays);
    size_of<rows::Section>("Section");
    size_of<rows::Text>("Text");
    size_of<rows::Range>("Range");
    size_of<rows::LiteralRow>("LiteralRow");
    FIELD(rows::LiteralRow, real);
    size_of<rows::ParameterRow>("ParameterRow");
    size_of<rows::ArgumentRow>("ArgumentRow");
    size_of<rows::FactoryRow>("FactoryRow");
    size_of<rows::CpWrapperRow>("CpWrapperRow");
    size_of<rows::ArchetypeRow>("ArchetypeRow");
    FIELD(rows::ArchetypeRow, target_class);
    size_of<rows::SourceBlockRow>("SourceBlockRow");
    size_of<rows::FamilyRow>("FamilyRow");
    size_of<rows::ComponentRow>("ComponentRow");
    size_of<famspec::PyNone>("PyNone");
    size_of<famspec::PyLiteral>("PyLiteral");
    size_of<famspec::Default>("Default");
    size_of<famspec::ParameterKind>("ParameterKind");
    size_of<famspec::Parameter>("Parameter");
    FIELD(famspec::Parameter, name);
    FIELD(famspec::Parameter, kind);
    FIELD(famspec::Parameter, default_value);
    FIELD(famspec::Parameter, allowed);
    size_of<famspec::ArgumentBinding>("ArgumentBinding");
    size_of<famspec::Argument>("Argument");
    size_of<famspec::ConstructionMode>("ConstructionMode");
    size_of<famspec::Construction>("Construction");
    FIELD(famspec::Construction, mode);
    size_of<famspec::SourceBlock>("SourceBlock");
    size_of<famspec::MoeStructure>("MoeStructure");
    // The declarations a host reads: plain values, no vtable.
    size_of<famspec::FamilyAdapter>("FamilyAdapter");
    size_of<famspec::ReplacementFactory>("ReplacementFactory");
    size_of<famspec::Component>("Component");
    size_of<famspec::CpWrapper>("CpWrapper");
    size_of<famspec::MoeArchetype>("MoeArchetype");
    std::printf("build-fingerprint abi=%u.%u;format=%u;word-bits=%u;byte-order=little;compiler=%s\n",
                unsigned{famspec::kAbiMajor}, unsigned{famspec::kAbiMinor}, unsigned{famspec::tables::kTableFormat},
                unsigned{famspec::tables::kWordBits}, FAMSPEC_COMPILER);
}
