// A plugin as data: declarations compile into one constant block (checked here by static_assert,
// while the test compiles), the block reads back through its byte offsets as declared, and a block
// that names anything outside itself is refused before it is followed.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "famspec/sdk/table_view.hpp"
#include "famspec/sdk/tables.hpp"
#include "qwen3_assets.hpp"
#include "toy_tables.hpp"

// Defined by FAMSPEC_PLUGIN in qwen3_table_plugin.cpp, as a plugin exports it.
extern "C" const famspec::PluginDescriptor famspec_plugin_descriptor;

namespace {

using namespace famspec::tables;
using famspec::ArgumentBinding;
using famspec::ConstructionMode;
using famspec::Default;
using famspec::ParameterKind;

// Every row is plain data, the same under any standard library: the block is copied by bytes.
template <class... Rows>
constexpr bool plain = ((std::is_trivially_copyable_v<Rows> && std::is_standard_layout_v<Rows>)&&...);
static_assert(plain<TableHeader, Text, Range, LiteralRow, ParameterRow, ArgumentRow, FactoryRow, CpWrapperRow,
                    ArchetypeRow, SourceBlockRow, FamilyRow, ComponentRow, famspec::PluginDescriptor>);

constexpr bool says(Text at, std::string_view expected) { return kToy.text(at) == expected; }
// By index: string_view::find's pointer into a constexpr variable is no constant under -fsanitize=address.
constexpr bool holds(std::string_view text, std::string_view piece) {
    for (std::size_t at = 0; at + piece.size() <= text.size(); ++at) {
        if (text.substr(at, piece.size()) == piece) return true;
    }
    return false;
}

static_assert(kToy.families.size() == 2 && kToy.factories.size() == 3 && kToy.components.size() == 1);
static_assert(kToy.header.byte_size == sizeof(kToy) && kToy.header.format == kTableFormat);

// A bare factory name is placed in the first provider; a dotted one is kept.
static_assert(says(kToy.factories[0].target, "hyper_parallel.models.toy_moe.adapter.replacements.replace_norm"));
static_assert(says(kToy.factories[1].target, "hyper_parallel.models.toy_moe.adapter.replacements.replace_linear"));
static_assert(kToy.factories[0].constructs == 1 && kToy.factories[0].mode == ConstructionMode::name);
static_assert(says(kToy.factories[0].runtime_only_reason, ""));
static_assert(kToy.arguments[0].binding == ArgumentBinding::literal && says(kToy.arguments[0].value, "1e-6"));
// A static option follows module, module_fqn and context, which the core adds.
static_assert(kToy.factories[0].options.count == 1 &&
              kToy.parameters[kToy.factories[0].options.first].literal.integer == 4);
// A factory constructs nothing: runtime-only, with its reason or the default one.
static_assert(kToy.factories[1].constructs == 0 && says(kToy.factories[1].where, "replacements.py:9"));
static_assert(says(kToy.factories[1].runtime_only_reason, "builds through Linear.from_linear at runtime"));
static_assert(says(kToy.factories[2].runtime_only_reason, "the factory declares no construction"));
static_assert(holds(kToy.text(kToy.factories[2].where), "toy_tables.hpp:"));

// kw_only is no parameter: what follows it is keyword-only, with its Literal[...] values.
static_assert(kToy.cp_wrappers[0].options.count == 1);
constexpr ParameterRow kBackend = kToy.parameters[kToy.cp_wrappers[0].options.first];
static_assert(kBackend.kind == ParameterKind::keyword_only && kBackend.allowed.count == 2);
static_assert(says(kToy.literals[kBackend.allowed.first + 1].string, "sdpa"));

// A component's signature: every default kind, and the marker dropped.
constexpr Range kSignature = kToy.components[0].signature;
static_assert(kSignature.count == 5);
constexpr auto signature_at(std::uint32_t i) { return kToy.parameters[kSignature.first + i]; }
static_assert(signature_at(0).kind == ParameterKind::positional_or_keyword &&
              signature_at(0).literal.kind == LiteralKind::none);
static_assert(signature_at(1).literal.kind == LiteralKind::real && signature_at(1).literal.real == 1e-05);
static_assert(signature_at(2).kind == ParameterKind::keyword_only &&
              signature_at(2).default_kind == Default::Kind::required);
static_assert(signature_at(3).literal.kind == LiteralKind::boolean && signature_at(3).literal.integer == 1);
static_assert(signature_at(4).default_kind == Default::Kind::expression &&
              says(signature_at(4).expression, "npu_forward"));

// The archetype and the sibling family.
static_assert(says(kToy.archetypes[0].router, "softmax_topk") && says(kToy.archetypes[0].kind, "moe_ep_routed"));
static_assert(says(kToy.families[1].model_type, "toy_dense") && kToy.families[1].factories.count == 0);

// A signature named once and shared gives the rows the same signature gives written in place.
constexpr Parameter kWrapper[] = {kw_only, param("module"), param("module_fqn", ""), param("context", famspec::none)};
constexpr auto kShared = compile([](auto use) {
    return use(Plugin{.components = {{.package = "p",
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
        if (!same_parameter(kShared.parameters[a.first + i], kShared.parameters[b.first + i])) return false;
    }
    return true;
}
static_assert(kShared.components[0].signature.count == 3 && kShared.parameters.size() == 6);
static_assert(same_signatures(kShared.components[0].signature, kShared.components[1].signature));
static_assert(kShared.parameters[0].kind == ParameterKind::keyword_only &&
              kShared.text(kShared.parameters[0].name) == "module");
static_assert(kShared.parameters[2].literal.kind == LiteralKind::none);

// A family declared in two parts, its amendment after the generated `families` (what a hand edit of
// a synced plugin writes), compiles to the block of the same family declared whole: each list is the
// family's own entries, then the amendment's. The amendment's bare factory name is placed in the
// family's first provider; an amendment of the sibling adds to the sibling only.
constexpr auto kWhole = compile([](auto use) {
    return use(Plugin{
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
                      .archetypes = {{.fingerprint = {"softmax_topk", "gated", "module_list"}, .target_class = "A"},
                                     {.fingerprint = {"sigmoid", "none", "batched"}, .target_class = "B"}}},
                     {.model_type = "sibling", .architecture = "SiblingForCausalLM", .aliases = {"sibling-b"}}},
    });
});
constexpr auto kAmended = compile([](auto use) {
    return use(Plugin{
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
                      .archetypes = {{.fingerprint = {"softmax_topk", "gated", "module_list"}, .target_class = "A"}}},
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
                        .archetypes = {{.fingerprint = {"sigmoid", "none", "batched"}, .target_class = "B"}}}},
    });
});
static_assert(std::is_same_v<decltype(kAmended), decltype(kWhole)>);  // the same number of every row
static_assert(kAmended.families.size() == 2 && kAmended.families[0].aliases.count == 2 &&
              kAmended.families[0].factories.count == 2 && kAmended.families[1].aliases.count == 1);
static_assert(kAmended.text(kAmended.factories[1].target) ==
              "hyper_parallel.models.amended.adapter.replacements.replace_b");
static_assert(kAmended.text(kAmended.texts[kAmended.families[1].aliases.first]) == "sibling-b");

std::vector<std::string> texts(const TableView& view, Range at) {
    std::vector<std::string> out;
    for (const Text each : view.texts(at)) out.emplace_back(view.text(each));
    return out;
}

// The qwen3 block, copied into memory the test may change.
std::vector<std::uint64_t> copy_of_qwen3_block() {
    const TableHeader& header = *famspec_plugin_descriptor.tables;
    std::vector<std::uint64_t> copy((header.byte_size + 7) / 8);
    std::memcpy(copy.data(), &header, header.byte_size);
    return copy;
}
TableHeader& header_of(std::vector<std::uint64_t>& block) { return *reinterpret_cast<TableHeader*>(block.data()); }

}  // namespace

TEST_CASE("a table plugin's descriptor claims ABI 4.0 in the fields every core reads first") {
    const famspec::PluginDescriptor& descriptor = famspec_plugin_descriptor;
    CHECK(descriptor.magic == famspec::kPluginMagic);
    CHECK(descriptor.abi_major == 4);
    CHECK(descriptor.abi_minor == 0);
    CHECK(descriptor.descriptor_size == sizeof(famspec::PluginDescriptor));
    CHECK(std::string(descriptor.fingerprint) == FAMSPEC_BUILD_FINGERPRINT);
    CHECK(std::string(descriptor.name) == "qwen3");
    CHECK(std::string(descriptor.version) == "1.0.0");
}

TEST_CASE("the qwen3 tables read back through their byte offsets as plugins/qwen3/plugin.cpp declares them") {
    const TableView view(*famspec_plugin_descriptor.tables);
    REQUIRE_FALSE(view.check().has_value());
    REQUIRE(view.families().size() == 1);
    CHECK(view.components().empty());
    const FamilyRow& qwen3 = view.families()[0];
    CHECK(view.text(qwen3.model_type) == "qwen3");
    CHECK(view.text(qwen3.architecture) == "Qwen3ForCausalLM");
    CHECK(texts(view, qwen3.providers) ==
          std::vector<std::string>{"hyper_parallel.models.qwen3.adapter.replacements",
                                   "hyper_parallel.models.qwen3.adapter.conversion.module_replacement"});
    CHECK(texts(view, qwen3.aliases).empty());

    // The attention function, the cached-mask helper it calls and the module state that helper keeps.
    const auto blocks = view.source_blocks(qwen3.interface_blocks);
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

    const auto factories = view.factories(qwen3.factories);
    REQUIRE(factories.size() == 3);
    const std::string provider = "hyper_parallel.models.qwen3.adapter.replacements.";
    CHECK(view.text(factories[0].target) == provider + "replace_qwen3_rms_norm");
    CHECK(view.text(factories[1].target) == provider + "replace_qwen3_flash_attention");
    CHECK(view.text(factories[2].target) == provider + "replace_qwen3_swiglu_mlp");
    CHECK(view.text(factories[1].where) == "hyper_parallel/models/qwen3/adapter/replacements.py:29");
    CHECK(view.text(factories[1].component) == "GQAAttention");
    CHECK(view.text(factories[1].import_module) == "hyper_parallel.components.modules");
    CHECK(factories[1].mode == ConstructionMode::wrap_source);
    const auto arguments = view.arguments(factories[1].arguments);
    REQUIRE(arguments.size() == 3);
    CHECK(view.text(arguments[2].keyword) == "attention_interface");
    CHECK(arguments[2].binding == ArgumentBinding::interface);
    CHECK(view.text(arguments[2].value) == "run_qwen3_flash_attention");
    CHECK(view.parameters(factories[0].options).empty());
}

TEST_CASE("a table block is refused whole when it names anything outside itself") {
    SUBCASE("a row's string past the characters") {
        auto block = copy_of_qwen3_block();
        TableHeader& header = header_of(block);
        auto* factories =
            reinterpret_cast<FactoryRow*>(reinterpret_cast<char*>(block.data()) + header.factories.offset);
        factories[2].target.offset = header.chars.count;
        CHECK(TableView(header).check() == "a table row names a string or list outside its array");
    }
    SUBCASE("a family's factories past their array") {
        auto block = copy_of_qwen3_block();
        TableHeader& header = header_of(block);
        auto* families = reinterpret_cast<FamilyRow*>(reinterpret_cast<char*>(block.data()) + header.families.offset);
        families[0].factories.count = 4;
        CHECK(TableView(header).check() == "a table row names a string or list outside its array");
    }
    SUBCASE("an array past the block") {
        auto block = copy_of_qwen3_block();
        TableHeader& header = header_of(block);
        header.byte_size = header.chars.offset + header.chars.count - 1;
        CHECK(TableView(header).check() ==
              "a table array lies outside the block of " + std::to_string(header.byte_size) + " bytes");
    }
    SUBCASE("a kind its type does not have") {
        auto block = copy_of_qwen3_block();
        TableHeader& header = header_of(block);
        auto* arguments =
            reinterpret_cast<ArgumentRow*>(reinterpret_cast<char*>(block.data()) + header.arguments.offset);
        arguments[0].binding = static_cast<famspec::ArgumentBinding>(3);
        CHECK(TableView(header).check() == "a table row gives a kind its type does not have");
    }
    SUBCASE("a format this reader does not know") {
        auto block = copy_of_qwen3_block();
        header_of(block).format = kTableFormat + 1;
        CHECK(TableView(header_of(block)).check() == "table format 2, expected 1");
    }
}

TEST_CASE("a family amended by a later entry compiles to the block of the same family declared whole") {
    REQUIRE(sizeof(kAmended) == sizeof(kWhole));
    CHECK(std::memcmp(&kAmended, &kWhole, sizeof(kWhole)) == 0);
    const TableView view(kAmended.header);
    REQUIRE_FALSE(view.check().has_value());
    CHECK(texts(view, view.families()[0].providers) ==
          std::vector<std::string>{"hyper_parallel.models.amended.adapter.replacements",
                                   "hyper_parallel.models.amended.adapter.conversion"});
    CHECK(view.text(view.factories(view.families()[0].factories)[1].where) == "by hand");
}
