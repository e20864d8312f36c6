// A plugin as data: declarations compile into one constant block (checked here by static_assert,
// while the test compiles), whose header carries the plugin's identity and the place of every array;
// the block reads back through its byte offsets as declared, and a block that is not well formed, or
// names anything outside itself, is refused before it is followed.
#include <doctest/doctest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "famspec/sdk/tables.hpp"
#include "famspec/table_view.hpp"
#include "toy_tables.hpp"

// The table-form qwen3, whose FAMSPEC_PLUGIN defines `famspec_plugin_tables` here as in its plugin
// file: a constant of its own block type, which the static_asserts below read.
#include "qwen3_table_plugin.cpp"  // NOLINT(bugprone-suspicious-include)

namespace {

using namespace famspec::tables;
using famspec::ArchetypeKind;
using famspec::ArgumentBinding;
using famspec::ConstructionMode;
using famspec::DefaultKind;
using famspec::ExpertStorage;
using famspec::MoeRouter;
using famspec::ParameterKind;
using famspec::SharedExperts;

// ---- the layout: plain integers, the same under any compiler and standard library -----------------

// Every row, and the header, is plain data, copied and read by bytes.
template <class... Rows>
constexpr bool plain(RowTypes<Rows...>) {
    return ((std::is_trivially_copyable_v<Rows> && std::is_standard_layout_v<Rows>)&&...);
}
static_assert(plain(BlockRows{}));
static_assert(plain(RowTypes<TableHeader, Range, Section>{}));
// A compiled block too: the header gives each array's offsetof.
static_assert(std::is_trivially_copyable_v<decltype(kToy)> && std::is_standard_layout_v<decltype(kToy)>);

// The row types, in their order in the block: the arrays of 8-byte rows first, the characters, then
// the array ABI 5.1 added, so that every 5.0 array keeps its index.
static_assert(std::is_same_v<
              BlockRows, RowTypes<LiteralRow, ParameterRow, Text, ArgumentRow, FactoryRow, CpWrapperRow, ArchetypeRow,
                                  SourceBlockRow, FamilyRow, ComponentRow, char, BorrowedCpWrapperRow>>);
static_assert(kArrayOf<LiteralRow> == 0 && kArrayOf<FamilyRow> == 8 && kArrayOf<ComponentRow> == 9 &&
              kArrayOf<char> == 10 && kArrayOf<BorrowedCpWrapperRow> == 11 && BlockRows::count == 12);

// Fixed sizes and alignments: a compiler or standard library that laid a row out otherwise would
// write a block the core reads wrongly, so it does not compile this test.
template <class Row>
constexpr bool laid_out(std::size_t size, std::size_t align) {
    return sizeof(Row) == size && alignof(Row) == align;
}
static_assert(laid_out<Text>(8, 4) && laid_out<Range>(8, 4) && laid_out<Section>(8, 4));
static_assert(laid_out<LiteralRow>(32, 8) && laid_out<ParameterRow>(64, 8));
static_assert(laid_out<ArgumentRow>(20, 4) && laid_out<FactoryRow>(64, 4) && laid_out<CpWrapperRow>(24, 4));
static_assert(laid_out<ArchetypeRow>(64, 4) && laid_out<SourceBlockRow>(32, 4) && laid_out<FamilyRow>(88, 4));
static_assert(laid_out<ComponentRow>(48, 4) && laid_out<BorrowedCpWrapperRow>(16, 4) && laid_out<TableHeader>(176, 8));
static_assert(offsetof(LiteralRow, integer) == 8 && offsetof(LiteralRow, real) == 16 &&
              offsetof(LiteralRow, string) == 24);
static_assert(offsetof(ParameterRow, literal) == 16 && offsetof(ParameterRow, allowed) == 56);
static_assert(offsetof(FactoryRow, constructs) == 16 && offsetof(FactoryRow, mode) == 20 &&
              offsetof(FactoryRow, runtime_only_reason) == 56);
static_assert(offsetof(ArchetypeRow, shared_experts) == 4 && offsetof(ArchetypeRow, shared) == 20 &&
              offsetof(ArchetypeRow, target_class) == 24 && offsetof(ArchetypeRow, options) == 56);
static_assert(offsetof(FamilyRow, aliases) == 24 && offsetof(FamilyRow, archetypes) == 80);

// The kinds a row stores, and the numbers of their words: part of the ABI, as a row is.
static_assert(std::is_same_v<std::underlying_type_t<LiteralKind>, std::uint8_t>);
template <class... Enums>
constexpr bool ints = (std::is_same_v<std::underlying_type_t<Enums>, int> && ...);
static_assert(ints<ParameterKind, DefaultKind, ArgumentBinding, ConstructionMode, MoeRouter, SharedExperts,
                   ExpertStorage, ArchetypeKind>);
static_assert(static_cast<int>(MoeRouter::softmax_topk) == 0 && static_cast<int>(MoeRouter::sigmoid_group) == 1 &&
              static_cast<int>(MoeRouter::topk_router_module) == 2);
static_assert(static_cast<int>(SharedExperts::none) == 0 && static_cast<int>(SharedExperts::gated) == 1 &&
              static_cast<int>(SharedExperts::additive) == 2);
static_assert(static_cast<int>(ExpertStorage::module_list) == 0 &&
              static_cast<int>(ExpertStorage::batched_parameters) == 1);
static_assert(static_cast<int>(ArchetypeKind::moe_ep_routed) == 0);

// ---- the header ------------------------------------------------------------------------------------

// The fixed prefix every core reads first: the magic at 0, the ABI at 8 and 10.
static_assert(offsetof(TableHeader, magic) == 0 && offsetof(TableHeader, abi_major) == 8 &&
              offsetof(TableHeader, abi_minor) == 10 && offsetof(TableHeader, header_size) == 12);
static_assert(offsetof(TableHeader, byte_order) == 16 && offsetof(TableHeader, word_bits) == 20 &&
              offsetof(TableHeader, format) == 24 && offsetof(TableHeader, byte_size) == 28 &&
              offsetof(TableHeader, name) == 32 && offsetof(TableHeader, compiler) == 56 &&
              offsetof(TableHeader, arrays) == 64);
// ABI 5.1 appends to ABI 5.0's 152 bytes: the borrowed wrappers' Section, then the framework's ranges.
static_assert(kHeaderSizeAbi50 == 152 && offsetof(TableHeader, archetypes) == 160 &&
              offsetof(TableHeader, cp_wrappers) == 168);
static_assert(famspec::kAbiMajor == 5 && famspec::kAbiMinor == 1 && kTableFormat == 2);
static_assert(kByteOrderMark == 0x01020304 && kWordBits == sizeof(void*) * 8);
// The magic's bytes, lowest first, spell FAMSPEC5.
constexpr bool magic_spells(std::string_view word) {
    for (std::size_t i = 0; i < 8; ++i) {
        if (((famspec::kPluginMagic >> (8 * i)) & 0xFFU) != static_cast<unsigned char>(word[i])) return false;
    }
    return true;
}
static_assert(magic_spells("FAMSPEC5"));
static_assert(std::string_view(famspec::kTableSection) == ".famspec_tables" &&
              std::string_view(famspec::kEntrySymbol) == "famspec_plugin_tables");

// What FAMSPEC_PLUGIN writes into the header of the qwen3 block.
constexpr const auto& kQwen3 = famspec_plugin_tables;
constexpr const TableHeader& kQwen3Header = kQwen3.header;
static_assert(kQwen3Header.magic == 0x3543455053'4d4146ULL && kQwen3Header.abi_major == 5 &&
              kQwen3Header.abi_minor == 1);
static_assert(kQwen3Header.header_size == sizeof(TableHeader) && kQwen3Header.byte_order == 0x01020304 &&
              kQwen3Header.word_bits == sizeof(void*) * 8 && kQwen3Header.reserved == 0 && kQwen3Header.format == 2);
static_assert(kQwen3Header.byte_size == sizeof(kQwen3));
static_assert(kQwen3.text(kQwen3Header.name) == "qwen3" && kQwen3.text(kQwen3Header.version) == "1.0.0");
static_assert(kQwen3.text(kQwen3Header.description) == "Qwen3ForCausalLM family, generated by famspec sync");
static_assert(kQwen3.text(kQwen3Header.compiler) == FAMSPEC_COMPILER);
#if defined(__clang__)
static_assert(kQwen3.text(kQwen3Header.compiler).substr(0, 6) == "clang-");
#else
static_assert(kQwen3.text(kQwen3Header.compiler).substr(0, 4) == "gcc-");
#endif
// Identity's strings as given, its compiler included; the ABI its defaults.
static_assert(kToy.text(kToy.header.name) == "toy" && kToy.text(kToy.header.version) == "0.3.1" &&
              kToy.text(kToy.header.description) == "one of each declaration" &&
              kToy.text(kToy.header.compiler) == "toy-cc-1");
static_assert(kToy.header.abi_major == famspec::kAbiMajor && kToy.header.abi_minor == famspec::kAbiMinor);
static_assert(kToy.header.byte_size == sizeof(kToy) && kToy.header.format == kTableFormat);

// Each array's Section is where the block holds it and how many rows it has; the arrays follow the
// header in BlockRows' order, and the first starts right after it, with no padding.
template <class Block, class... Rows>
constexpr bool arrays_placed(const Block& block, RowTypes<Rows...>) {
    std::size_t next = sizeof(TableHeader);
    bool placed = true;
    const auto place = [&](const Section section, std::size_t offset, std::size_t count, std::size_t row_size) {
        placed = placed && section.offset == offset && section.count == count && offset >= next;
        next = offset + count * row_size;
    };
    (place(block.header.template array<Rows>(), Block::template offset_of<Rows>(), block.template rows<Rows>().size(),
           sizeof(Rows)),
     ...);
    return placed && next <= block.header.byte_size &&
           block.header.template array<LiteralRow>().offset == sizeof(TableHeader);
}
static_assert(arrays_placed(kQwen3, BlockRows{}) && arrays_placed(kToy, BlockRows{}));
static_assert(kQwen3Header.array<FamilyRow>().count == 1 && kQwen3Header.array<FactoryRow>().count == 3 &&
              kQwen3Header.array<ArgumentRow>().count == 7 && kQwen3Header.array<SourceBlockRow>().count == 3 &&
              kQwen3Header.array<ComponentRow>().count == 0 && kQwen3Header.array<ArchetypeRow>().count == 0);

// ---- the rows of kToy --------------------------------------------------------------------------

constexpr bool says(Text at, std::string_view expected) { return kToy.text(at) == expected; }
// By index: string_view::find's pointer into a constexpr variable is no constant under -fsanitize=address.
constexpr bool holds(std::string_view text, std::string_view piece) {
    for (std::size_t at = 0; at + piece.size() <= text.size(); ++at) {
        if (text.substr(at, piece.size()) == piece) return true;
    }
    return false;
}

constexpr const auto& kFamilies = kToy.rows<FamilyRow>();
constexpr const auto& kFactories = kToy.rows<FactoryRow>();
constexpr const auto& kParameters = kToy.rows<ParameterRow>();
static_assert(kFamilies.size() == 2 && kFactories.size() == 3 && kToy.rows<ComponentRow>().size() == 1);
static_assert(kToy.rows<LiteralRow>().size() == 2 && kToy.rows<ArgumentRow>().size() == 1 &&
              kToy.rows<CpWrapperRow>().size() == 1 && kToy.rows<ArchetypeRow>().size() == 1 &&
              kToy.rows<SourceBlockRow>().empty() && kToy.rows<Text>().size() == 5 && kParameters.size() == 8);
static_assert(says(kFamilies[0].model_type, "toy_moe") && says(kFamilies[0].architecture, "ToyMoeForCausalLM") &&
              says(kFamilies[0].where, "") && kFamilies[0].factories.first == 0 && kFamilies[0].factories.count == 3);
static_assert(says(kToy.rows<Text>()[kFamilies[0].aliases.first], "toy-moe") && kFamilies[0].aliases.count == 1);

// A bare factory name is placed in the first provider; a dotted one is kept.
static_assert(says(kFactories[0].target, "hyper_parallel.models.toy_moe.adapter.replacements.replace_norm"));
static_assert(says(kFactories[1].target, "hyper_parallel.models.toy_moe.adapter.replacements.replace_linear"));
static_assert(kFactories[0].constructs == 1 && kFactories[0].mode == ConstructionMode::name);
static_assert(says(kFactories[0].component, "OffsetRMSNorm") &&
              says(kFactories[0].import_module, "hyper_parallel.components.modules"));
static_assert(says(kFactories[0].runtime_only_reason, ""));
static_assert(kToy.rows<ArgumentRow>()[0].binding == ArgumentBinding::literal &&
              says(kToy.rows<ArgumentRow>()[0].keyword, "eps") && says(kToy.rows<ArgumentRow>()[0].value, "1e-6"));
// A static option follows module, module_fqn and context, which the core adds.
static_assert(kFactories[0].options.count == 1 && kParameters[kFactories[0].options.first].literal.integer == 4 &&
              kParameters[kFactories[0].options.first].literal.kind == LiteralKind::integer);
// A factory constructs nothing: runtime-only, with its reason or the default one.
static_assert(kFactories[1].constructs == 0 && says(kFactories[1].where, "replacements.py:9"));
static_assert(says(kFactories[1].runtime_only_reason, "builds through Linear.from_linear at runtime"));
static_assert(says(kFactories[2].runtime_only_reason, "the factory declares no construction"));
static_assert(holds(kToy.text(kFactories[2].where), "toy_tables.hpp:"));

// kw_only is no parameter: what follows it is keyword-only, with its Literal[...] values.
static_assert(kToy.rows<CpWrapperRow>()[0].options.count == 1);
constexpr ParameterRow kBackend = kParameters[kToy.rows<CpWrapperRow>()[0].options.first];
static_assert(kBackend.kind == ParameterKind::keyword_only && kBackend.allowed.count == 2);
static_assert(says(kBackend.name, "backend") && says(kBackend.literal.string, "npu"));
static_assert(says(kToy.rows<LiteralRow>()[kBackend.allowed.first].string, "npu") &&
              says(kToy.rows<LiteralRow>()[kBackend.allowed.first + 1].string, "sdpa"));

// A component's signature: every default kind, and the marker dropped.
constexpr Range kSignature = kToy.rows<ComponentRow>()[0].signature;
static_assert(kSignature.count == 5);
constexpr auto signature_at(std::uint32_t i) { return kParameters[kSignature.first + i]; }
static_assert(signature_at(0).kind == ParameterKind::positional_or_keyword &&
              signature_at(0).literal.kind == LiteralKind::none);
static_assert(signature_at(1).literal.kind == LiteralKind::real && signature_at(1).literal.real == 1e-05);
static_assert(signature_at(2).kind == ParameterKind::keyword_only &&
              signature_at(2).default_kind == DefaultKind::required);
static_assert(signature_at(3).literal.kind == LiteralKind::boolean && signature_at(3).literal.integer == 1);
static_assert(signature_at(4).default_kind == DefaultKind::expression &&
              says(signature_at(4).expression, "npu_forward"));
static_assert(says(kToy.rows<ComponentRow>()[0].import_module, "hyper_parallel.components.modules") &&
              says(kToy.rows<ComponentRow>()[0].submodule, "rms_norm"));

// The archetype's words are typed: each as declared, none a string.
constexpr ArchetypeRow kArchetype = kToy.rows<ArchetypeRow>()[0];
static_assert(kArchetype.router == MoeRouter::sigmoid_group && kArchetype.shared_experts == SharedExperts::gated &&
              kArchetype.expert_storage == ExpertStorage::batched_parameters);
static_assert(kArchetype.kind == ArchetypeKind::moe_ep_routed &&
              kArchetype.router_kind == MoeRouter::topk_router_module && kArchetype.shared == SharedExperts::additive);
static_assert(says(kArchetype.target_class, "ToyMoE") &&
              says(kArchetype.compute_factory, "hyper_parallel.models.toy_moe.adapter.ep.ep_fn") &&
              says(kArchetype.where, ""));
static_assert(kArchetype.strip_boundary_subpatterns.count == 1 &&
              says(kToy.rows<Text>()[kArchetype.strip_boundary_subpatterns.first], "experts.*"));
static_assert(kArchetype.options.count == 1 && says(kParameters[kArchetype.options.first].name, "capacity") &&
              kParameters[kArchetype.options.first].kind == ParameterKind::keyword_only &&
              kParameters[kArchetype.options.first].literal.real == 1.25);
static_assert(kFamilies[0].archetypes.first == 0 && kFamilies[0].archetypes.count == 1);

// The sibling family.
static_assert(says(kFamilies[1].model_type, "toy_dense") && kFamilies[1].factories.count == 0 &&
              kFamilies[1].archetypes.count == 0);

// ---- a small block with UTF-8 text, to break by hand ---------------------------------------------

// "déjà → vu" and "small-α", written in bytes so that the source's own encoding does not matter.
constexpr std::string_view kDescription = "d\xC3\xA9j\xC3\xA0 \xE2\x86\x92 vu";
constexpr auto kSmall = compile([](auto use) {
    return use(Identity{.name = "small", .version = "1.0.0", .description = kDescription},
               Plugin{.families = {{.model_type = "small",
                                    .architecture = "SmallForCausalLM",
                                    .aliases = {"small-\xCE\xB1"},
                                    .archetypes = {{.target_class = "SmallMoE", .compute_factory = "small.ep_fn"}}}}});
});
// The characters: the identity's first, so the description starts at byte 10; its arrow at 17.
static_assert(kSmall.header.description.offset == 10 && kSmall.header.description.size == 13);
static_assert(kSmall.text(kSmall.header.description).substr(7, 3) == "\xE2\x86\x92");
constexpr Text kSmallAlias = kSmall.rows<Text>()[0];
static_assert(kSmall.text(kSmallAlias) == "small-\xCE\xB1" && kSmallAlias.size == 8);
// An archetype that gives no words gets every default.
constexpr ArchetypeRow kDefaults = kSmall.rows<ArchetypeRow>()[0];
static_assert(kDefaults.router == MoeRouter::softmax_topk && kDefaults.shared_experts == SharedExperts::none &&
              kDefaults.expert_storage == ExpertStorage::module_list &&
              kDefaults.kind == ArchetypeKind::moe_ep_routed && kDefaults.router_kind == MoeRouter::softmax_topk &&
              kDefaults.shared == SharedExperts::none);

// ---- shared signatures and amendments ----------------------------------------------------------------

constexpr Identity kTestIdentity{.name = "test", .version = "1.0.0", .description = "famspec test tables"};

// A signature named once and shared gives the rows the same signature gives written in place.
constexpr Parameter kWrapper[] = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none)};
constexpr auto kShared = compile([](auto use) {
    return use(kTestIdentity,
               Plugin{.components = {{.package = "p",
                                      .components = {{.name = "Named", .submodule = "m", .signature = kWrapper},
                                                     {.name = "InPlace",
                                                      .submodule = "m",
                                                      .signature = {kw_only, param("module"), param("module_fqn", ""),
                                                                    param("context", famspec::none)}}}}}});
});
constexpr bool same_parameter(const ParameterRow& a, const ParameterRow& b) {
    return kShared.text(a.name) == kShared.text(b.name) && a.kind == b.kind && a.default_kind == b.default_kind &&
           a.literal.kind == b.literal.kind && kShared.text(a.literal.string) == kShared.text(b.literal.string);
}
constexpr bool same_signatures(Range a, Range b) {
    if (a.count != b.count) return false;
    for (std::uint32_t i = 0; i < a.count; ++i) {
        if (!same_parameter(kShared.rows<ParameterRow>()[a.first + i], kShared.rows<ParameterRow>()[b.first + i]))
            return false;
    }
    return true;
}
static_assert(kShared.rows<ComponentRow>()[0].signature.count == 3 && kShared.rows<ParameterRow>().size() == 6);
static_assert(same_signatures(kShared.rows<ComponentRow>()[0].signature, kShared.rows<ComponentRow>()[1].signature));
static_assert(kShared.rows<ParameterRow>()[0].kind == ParameterKind::keyword_only &&
              kShared.text(kShared.rows<ParameterRow>()[0].name) == "module");
static_assert(kShared.rows<ParameterRow>()[2].literal.kind == LiteralKind::none);

// A family declared in two parts, its amendment after the generated `families` (what a hand edit of
// a synced plugin writes), compiles to the block of the same family declared whole: each list is the
// family's own entries, then the amendment's. The amendment's bare factory name is placed in the
// family's first provider; an amendment of the sibling adds to the sibling only.
constexpr Fingerprint kFingerprintA{.router = MoeRouter::softmax_topk,
                                    .shared_experts = SharedExperts::gated,
                                    .expert_storage = ExpertStorage::module_list};
constexpr Fingerprint kFingerprintB{.router = MoeRouter::sigmoid_group,
                                    .shared_experts = SharedExperts::none,
                                    .expert_storage = ExpertStorage::batched_parameters};
constexpr auto kWhole = compile([](auto use) {
    return use(
        kTestIdentity,
        Plugin{
            .families = {{.model_type = "amended",
                          .architecture = "AmendedForCausalLM",
                          .where = "registration.py:3",
                          .aliases = {"amended-a", "amended-b"},
                          .directory_aliases = {"amendeda", "amendedb"},
                          .providers = {"hyper_parallel.models.amended.adapter.replacements",
                                        "hyper_parallel.models.amended.adapter.conversion"},
                          .interface_blocks = {{.defines = {"run_a"}, .text = "def run_a(): pass\n"},
                                               {.defines = {"run_b"}, .text = "def run_b(): pass\n"}},
                          .compute_functions = {"hyper_parallel.models.amended.adapter.ep.a_fn",
                                                "hyper_parallel.models.amended.adapter.ep.b_fn"},
                          .factories = {{.target = "replace_a", .runtime_only = "a", .where = "replacements.py:5"},
                                        {.target = "replace_b",
                                         .constructs = wraps("B", "hyper_parallel.components"),
                                         .arguments = {bind("context")},
                                         .where = "by hand"}},
                          .cp_wrappers = {{.target = "hyper_parallel.models.amended.adapter.cp.a_cp"},
                                          {.target = "hyper_parallel.models.amended.adapter.cp.b_cp",
                                           .options = {kw_only, param("backend", "npu")}}},
                          .archetypes = {{.fingerprint = kFingerprintA, .target_class = "A"},
                                         {.fingerprint = kFingerprintB, .target_class = "B"}}},
                         {.model_type = "sibling", .architecture = "SiblingForCausalLM", .aliases = {"sibling-b"}}},
        });
});
constexpr auto kAmended = compile([](auto use) {
    return use(
        kTestIdentity,
        Plugin{
            .families = {{.model_type = "amended",
                          .architecture = "AmendedForCausalLM",
                          .where = "registration.py:3",
                          .aliases = {"amended-a"},
                          .directory_aliases = {"amendeda"},
                          .providers = {"hyper_parallel.models.amended.adapter.replacements"},
                          .interface_blocks = {{.defines = {"run_a"}, .text = "def run_a(): pass\n"}},
                          .compute_functions = {"hyper_parallel.models.amended.adapter.ep.a_fn"},
                          .factories = {{.target = "replace_a", .runtime_only = "a", .where = "replacements.py:5"}},
                          .cp_wrappers = {{.target = "hyper_parallel.models.amended.adapter.cp.a_cp"}},
                          .archetypes = {{.fingerprint = kFingerprintA, .target_class = "A"}}},
                         {.model_type = "sibling", .architecture = "SiblingForCausalLM"}},
            .amendments = {{.model_type = "amended",
                            .aliases = {"amended-b"},
                            .directory_aliases = {"amendedb"},
                            .providers = {"hyper_parallel.models.amended.adapter.conversion"}},
                           {.model_type = "sibling", .aliases = {"sibling-b"}},
                           {.model_type = "amended",
                            .interface_blocks = {{.defines = {"run_b"}, .text = "def run_b(): pass\n"}},
                            .compute_functions = {"hyper_parallel.models.amended.adapter.ep.b_fn"},
                            .factories = {{.target = "replace_b",
                                           .constructs = wraps("B", "hyper_parallel.components"),
                                           .arguments = {bind("context")},
                                           .where = "by hand"}},
                            .cp_wrappers = {{.target = "hyper_parallel.models.amended.adapter.cp.b_cp",
                                             .options = {kw_only, param("backend", "npu")}}},
                            .archetypes = {{.fingerprint = kFingerprintB, .target_class = "B"}}}},
        });
});
static_assert(std::is_same_v<decltype(kAmended), decltype(kWhole)>);  // the same number of every row
static_assert(kAmended.rows<FamilyRow>().size() == 2 && kAmended.rows<FamilyRow>()[0].aliases.count == 2 &&
              kAmended.rows<FamilyRow>()[0].factories.count == 2 && kAmended.rows<FamilyRow>()[1].aliases.count == 1);
static_assert(kAmended.text(kAmended.rows<FactoryRow>()[1].target) ==
              "hyper_parallel.models.amended.adapter.replacements.replace_b");
static_assert(kAmended.text(kAmended.rows<Text>()[kAmended.rows<FamilyRow>()[1].aliases.first]) == "sibling-b");
static_assert(kAmended.rows<ArchetypeRow>()[1].router == MoeRouter::sigmoid_group &&
              kAmended.rows<ArchetypeRow>()[1].expert_storage == ExpertStorage::batched_parameters);

// ---- reading and refusing blocks at run time ------------------------------------------------------

template <class Block>
TableView view_of(const Block& block) {
    return TableView(block.header, sizeof(block));
}
// check()'s verdict, as text a failed CHECK prints.
std::string verdict(const TableView& view) { return view.check().value_or("well formed"); }
template <class Block>
std::string verdict(const Block& block) {
    return verdict(view_of(block));
}

std::vector<std::string> texts(const TableView& view, Range at) {
    std::vector<std::string> out;
    for (const Text each : view.rows<Text>(at)) out.emplace_back(view.text(each));
    return out;
}

constexpr const char* kOutside = "a table row names a string or list outside its array";
constexpr const char* kUnknownKind = "a table row gives a kind its type does not have";

// One of the archetype's words set to its last enumerator (accepted), then past it (refused).
template <class Enum>
void check_word(Enum ArchetypeRow::*word, Enum last) {
    CAPTURE(static_cast<int>(last));
    auto block = kSmall;
    ArchetypeRow& row = block.rows<ArchetypeRow>()[0];
    row.*word = last;
    CHECK(verdict(block) == "well formed");
    row.*word = static_cast<Enum>(static_cast<int>(last) + 1);
    CHECK(verdict(block) == kUnknownKind);
    row.*word = static_cast<Enum>(-1);
    CHECK(verdict(block) == kUnknownKind);
}

}  // namespace

TEST_CASE("a compiled block starts with the fixed prefix every core reads first, in its own bytes") {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&famspec_plugin_tables);
    std::uint16_t abi_major = 0;
    std::uint16_t abi_minor = 0;
    std::memcpy(&abi_major, bytes + 8, sizeof abi_major);
    std::memcpy(&abi_minor, bytes + 10, sizeof abi_minor);
    CHECK(abi_major == 5);
    CHECK(abi_minor == 1);
    if constexpr (std::endian::native == std::endian::little) {
        CHECK(std::string_view(reinterpret_cast<const char*>(bytes), 8) == "FAMSPEC5");
    }
    std::uint32_t byte_order = 0;
    std::memcpy(&byte_order, bytes + 16, sizeof byte_order);
    CHECK(byte_order == 0x01020304);
}

TEST_CASE("check() accepts every block compile() writes") {
    CHECK(verdict(famspec_plugin_tables) == "well formed");
    CHECK(verdict(kToy) == "well formed");
    CHECK(verdict(kSmall) == "well formed");
    CHECK(verdict(kShared) == "well formed");
    CHECK(verdict(kAmended) == "well formed");
    // The identity, through the view.
    const TableView view = view_of(kSmall);
    CHECK(view.text(view.header().name) == "small");
    CHECK(view.text(view.header().description) == kDescription);
    CHECK(view.text(view.header().compiler) == FAMSPEC_COMPILER);
    CHECK(view.all<FamilyRow>().size() == 1);
    CHECK(view.all<ArchetypeRow>().size() == 1);
    CHECK(view.all<ComponentRow>().empty());
    CHECK(texts(view, view.families()[0].aliases) == std::vector<std::string>{"small-\xCE\xB1"});
}

TEST_CASE("the qwen3 tables read back through their byte offsets as plugins/qwen3/plugin.cpp declares them") {
    const TableView view = view_of(famspec_plugin_tables);
    REQUIRE(verdict(view) == "well formed");
    REQUIRE(view.families().size() == 1);
    CHECK(view.components().empty());
    const FamilyRow& qwen3 = view.families()[0];
    CHECK(view.text(qwen3.model_type) == "qwen3");
    CHECK(view.text(qwen3.architecture) == "Qwen3ForCausalLM");
    CHECK(view.text(qwen3.where) == "hyper_parallel/models/qwen3/adapter/registration.py:30");
    CHECK(texts(view, qwen3.providers) ==
          std::vector<std::string>{"hyper_parallel.models.qwen3.adapter.replacements",
                                   "hyper_parallel.models.qwen3.adapter.conversion.module_replacement"});
    CHECK(texts(view, qwen3.aliases).empty());

    // The attention function, the cached-mask helper it calls and the module state that helper keeps.
    const auto blocks = view.rows<SourceBlockRow>(qwen3.interface_blocks);
    REQUIRE(blocks.size() == 3);
    CHECK(texts(view, blocks[0].defines) == std::vector<std::string>{"run_qwen3_flash_attention"});
    CHECK(texts(view, blocks[0].needs) ==
          std::vector<std::string>{"nn", "torch", "Any", "_get_compressed_causal_mask"});
    CHECK(texts(view, blocks[0].imports) ==
          std::vector<std::string>{"from torch import nn", "import torch", "from typing import Any"});
    CHECK(view.text(blocks[0].text) == famspec_assets::run_qwen3_flash_attention);
    CHECK(texts(view, blocks[1].defines) == std::vector<std::string>{"_get_compressed_causal_mask"});
    CHECK(view.text(blocks[1].text) == famspec_assets::get_compressed_causal_mask);
    CHECK(texts(view, blocks[2].defines) ==
          std::vector<std::string>{"_COMPRESSED_CAUSAL_MASK_SIZE", "_COMPRESSED_CAUSAL_MASKS"});
    CHECK(view.text(blocks[2].text) == famspec_assets::compressed_causal_mask_size);

    const auto factories = view.rows<FactoryRow>(qwen3.factories);
    REQUIRE(factories.size() == 3);
    const std::string provider = "hyper_parallel.models.qwen3.adapter.replacements.";
    CHECK(view.text(factories[0].target) == provider + "replace_qwen3_rms_norm");
    CHECK(view.text(factories[1].target) == provider + "replace_qwen3_flash_attention");
    CHECK(view.text(factories[2].target) == provider + "replace_qwen3_swiglu_mlp");
    CHECK(view.text(factories[1].where) == "hyper_parallel/models/qwen3/adapter/replacements.py:29");
    CHECK(view.text(factories[1].component) == "GQAAttention");
    CHECK(view.text(factories[1].import_module) == "hyper_parallel.components.modules");
    CHECK(factories[1].mode == ConstructionMode::wrap_source);
    const auto arguments = view.rows<ArgumentRow>(factories[1].arguments);
    REQUIRE(arguments.size() == 3);
    CHECK(view.text(arguments[2].keyword) == "attention_interface");
    CHECK(arguments[2].binding == ArgumentBinding::interface);
    CHECK(view.text(arguments[2].value) == "run_qwen3_flash_attention");
    CHECK(view.rows<ParameterRow>(factories[0].options).empty());
    CHECK(view.rows<ArchetypeRow>(qwen3.archetypes).empty());
}

TEST_CASE("a block whose header does not describe it is refused, naming what is wrong") {
    SUBCASE("a format this reader does not know") {
        auto block = kSmall;
        block.header.format = kTableFormat + 1;
        CHECK(verdict(block) == "table format 3, expected 2");
        block.header.format = 0;
        CHECK(verdict(block) == "table format 0, expected 2");
    }
    SUBCASE("a header smaller than this reader's") {
        auto block = kSmall;
        block.header.header_size = kHeaderSizeAbi50 - 8;
        CHECK(verdict(block) == "a table header of 144 bytes in a section of " + std::to_string(sizeof(block)) +
                                    ", expected at least 152");
    }
    SUBCASE("a section smaller than the header") {
        CHECK(verdict(TableView(kSmall.header, kHeaderSizeAbi50 - 1)) ==
              "a table section of 151 bytes, shorter than its header's 152");
    }
    SUBCASE("a block larger than its section") {
        const std::size_t size = sizeof(kSmall);
        CHECK(verdict(TableView(kSmall.header, size - 1)) ==
              "a table block of " + std::to_string(size) + " bytes in a section of " + std::to_string(size - 1));
    }
    SUBCASE("a block that ends inside its header") {
        auto block = kSmall;
        block.header.byte_size = sizeof(TableHeader) - 1;
        CHECK(verdict(block) == "a table block of 175 bytes in a section of " + std::to_string(sizeof(block)));
    }
}

TEST_CASE("a block with an array outside itself is refused") {
    const std::string outside = "a table array lies outside the block of " + std::to_string(sizeof(kSmall)) + " bytes";
    SUBCASE("an array past the block's end") {
        auto block = kSmall;
        block.header.array<FamilyRow>().offset = block.header.byte_size;
        CHECK(verdict(block) == outside);
    }
    SUBCASE("an array longer than the block") {
        auto block = kSmall;
        block.header.array<ArchetypeRow>().count += 1000;
        CHECK(verdict(block) == outside);
    }
    SUBCASE("an array that ends past 4 GiB") {
        auto block = kSmall;
        block.header.array<LiteralRow>() = Section{0xFFFFFFF8U, 0x08000000U};
        CHECK(verdict(block) == outside);
    }
    SUBCASE("an array inside the header") {
        auto block = kSmall;
        block.header.array<char>().offset = 0;
        CHECK(verdict(block) == outside);
    }
    SUBCASE("an array not aligned for its rows") {
        auto block = kSmall;
        block.header.array<FamilyRow>().offset += 2;
        CHECK(verdict(block) == outside);
    }
    SUBCASE("the characters past the block") {
        auto block = kSmall;
        block.header.byte_size = block.header.array<char>().offset + block.header.array<char>().count - 1;
        CHECK(verdict(block) ==
              "a table array lies outside the block of " + std::to_string(block.header.byte_size) + " bytes");
    }
}

TEST_CASE("a block whose characters are not UTF-8 text is refused at the first bad byte") {
    const std::uint32_t description = kSmall.header.description.offset;  // 10: "d\xC3\xA9j..."
    SUBCASE("a byte no UTF-8 text holds") {
        auto block = kSmall;
        block.rows<char>()[description] = '\xFF';
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 10 of its strings)");
    }
    SUBCASE("a continuation byte with no lead") {
        auto block = kSmall;
        block.rows<char>()[description] = '\x80';
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 10 of its strings)");
    }
    SUBCASE("a lead byte without its continuation") {
        auto block = kSmall;
        block.rows<char>()[description + 2] = 'e';  // \xC3 then 'e'
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 11 of its strings)");
    }
    SUBCASE("an overlong form") {
        auto block = kSmall;
        block.rows<char>()[description + 7] = '\xE0';  // \xE0\x86\x92: U+0192 in three bytes
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 17 of its strings)");
    }
    SUBCASE("a surrogate") {
        auto block = kSmall;
        block.rows<char>()[description + 7] = '\xED';
        block.rows<char>()[description + 8] = '\xA0';
        block.rows<char>()[description + 9] = '\x80';
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 17 of its strings)");
    }
    SUBCASE("a NUL") {
        auto block = kSmall;
        block.rows<char>()[description + 3] = '\0';
        CHECK(verdict(block) == "a NUL byte at character 13 of its strings");
    }
    SUBCASE("characters that end in the middle of one") {
        auto block = kSmall;
        block.header.array<char>().count = description + 2;  // after the lead byte of \xC3\xA9
        CHECK(verdict(block) == "a string that is not UTF-8 (byte 11 of its strings)");
    }
}

TEST_CASE("a block whose strings are cut in the middle of a character is refused") {
    SUBCASE("a row's string that ends inside one") {
        auto block = kSmall;
        block.rows<Text>()[0].size -= 1;  // "small-" and the first byte of \xCE\xB1
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("a row's string that starts inside one") {
        auto block = kSmall;
        block.rows<Text>()[0] = Text{kSmallAlias.offset + 7, 1};  // the second byte of \xCE\xB1
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("the plugin's description cut inside one") {
        auto block = kSmall;
        block.header.description.size = 2;  // "d" and the first byte of \xC3\xA9
        CHECK(verdict(block) == "the plugin's name, version, description or compiler lies outside its characters");
    }
}

TEST_CASE("a block whose rows name a string or list outside its array is refused") {
    SUBCASE("a row's string past the characters") {
        auto block = kSmall;
        block.rows<FamilyRow>()[0].architecture.offset = block.header.array<char>().count;
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("a family's archetypes past their array") {
        auto block = kSmall;
        block.rows<FamilyRow>()[0].archetypes.count = 2;
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("a family's aliases starting past their array") {
        auto block = kSmall;
        block.rows<FamilyRow>()[0].aliases.first = 1;
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("a list whose end wraps past 4 GiB") {
        auto block = kSmall;
        block.rows<FamilyRow>()[0].aliases = Range{0xFFFFFFFFU, 2};
        CHECK(verdict(block) == kOutside);
    }
    SUBCASE("the plugin's name past the characters") {
        auto block = kSmall;
        block.header.name = Text{0x7FFF0000U, 16};
        CHECK(verdict(block) == "the plugin's name, version, description or compiler lies outside its characters");
    }
    SUBCASE("a qwen3 factory's arguments past their array") {
        auto block = famspec_plugin_tables;
        block.rows<FactoryRow>()[2].arguments.count = 3;  // the last factory: 2 + 3 of 7
        CHECK(verdict(block) == kOutside);
    }
}

TEST_CASE("a block whose archetype gives a word its type does not have is refused") {
    check_word(&ArchetypeRow::router, MoeRouter::topk_router_module);
    check_word(&ArchetypeRow::shared_experts, SharedExperts::additive);
    check_word(&ArchetypeRow::expert_storage, ExpertStorage::batched_parameters);
    check_word(&ArchetypeRow::kind, ArchetypeKind::moe_ep_routed);
    check_word(&ArchetypeRow::router_kind, MoeRouter::topk_router_module);
    check_word(&ArchetypeRow::shared, SharedExperts::additive);
}

TEST_CASE("a block whose other rows give a kind their type does not have is refused") {
    SUBCASE("an argument's binding") {
        auto block = famspec_plugin_tables;
        block.rows<ArgumentRow>()[0].binding = static_cast<ArgumentBinding>(3);
        CHECK(verdict(block) == kUnknownKind);
    }
    SUBCASE("a factory's mode") {
        auto block = kToy;
        block.rows<FactoryRow>()[1].mode = static_cast<ConstructionMode>(2);
        CHECK(verdict(block) == kUnknownKind);
    }
    SUBCASE("a literal's kind") {
        auto block = kToy;
        block.rows<LiteralRow>()[1].kind = static_cast<LiteralKind>(5);
        CHECK(verdict(block) == kUnknownKind);
    }
    SUBCASE("a parameter's default") {
        auto block = kToy;
        block.rows<ParameterRow>()[0].default_kind = static_cast<DefaultKind>(3);
        CHECK(verdict(block) == kUnknownKind);
    }
}

TEST_CASE("a family amended by a later entry compiles to the block of the same family declared whole") {
    REQUIRE(sizeof(kAmended) == sizeof(kWhole));
    CHECK(std::memcmp(&kAmended, &kWhole, sizeof(kWhole)) == 0);
    const TableView view = view_of(kAmended);
    REQUIRE(verdict(view) == "well formed");
    CHECK(texts(view, view.families()[0].providers) ==
          std::vector<std::string>{"hyper_parallel.models.amended.adapter.replacements",
                                   "hyper_parallel.models.amended.adapter.conversion"});
    CHECK(view.text(view.rows<FactoryRow>(view.families()[0].factories)[1].where) == "by hand");
    const auto archetypes = view.rows<ArchetypeRow>(view.families()[0].archetypes);
    REQUIRE(archetypes.size() == 2);
    CHECK(view.text(archetypes[1].target_class) == "B");
    CHECK(archetypes[1].router == MoeRouter::sigmoid_group);
}
