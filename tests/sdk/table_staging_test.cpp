// The core stages a plugin's tables into the declarations they name: the same families, factories,
// wrappers, archetypes and components as written out by hand below, answer for answer, with the
// runtime parameters, the qualified targets and the defaults compile() and the core add. Its manifest
// is the plugin's identity from the header and the keys of the same rows. Every copy is charged to the
// plugin's copy budget.
#include "registry/table_staging.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <string>
#include <vector>

#include "famspec/fingerprint.hpp"
#include "famspec/plugin_manifest.hpp"
#include "loading/table_manifest.hpp"
#include "registry/copy_budget.hpp"
#include "registry/staging_registrar.hpp"
#include "toy_tables.hpp"

namespace {

using famspec::detail::CopyBudget;
using famspec::detail::StagingRegistrar;
using famspec::tables::TableView;
using Declarations = StagingRegistrar::Declarations;

// Each declaration is a plain value: the staged one equals the one written out by hand, member for
// member; the entry's plugin and file are the registrar's.
template <class T>
void check_same(const std::vector<famspec::Registered<T>>& tables,
                const std::vector<famspec::Registered<T>>& expected) {
    REQUIRE(tables.size() == expected.size());
    for (std::size_t i = 0; i < tables.size(); ++i) {
        CAPTURE(i);
        CHECK(*tables[i] == *expected[i]);
        CHECK(tables[i].plugin == "tables");
        CHECK(tables[i].path == "tables.so");
    }
}

void check_same_families(const Declarations& tables, const Declarations& expected) {
    REQUIRE(tables.families.size() == expected.families.size());
    for (std::size_t i = 0; i < tables.families.size(); ++i) {
        const auto& ours = tables.families[i];
        const auto& theirs = expected.families[i];
        CAPTURE(theirs->model_type);
        CHECK(*ours == *theirs);
        CHECK(ours.provider_modules == theirs.provider_modules);
        CHECK(ours.plugin == "tables");
        CHECK(ours.path == "tables.so");
    }
}

void check_same_declarations(const Declarations& tables, const Declarations& expected) {
    check_same(tables.factories, expected.factories);
    check_same(tables.cp_wrappers, expected.cp_wrappers);
    check_same(tables.archetypes, expected.archetypes);
    check_same(tables.components, expected.components);
}

TableView toy_view() {
    const TableView view(kToy.header, sizeof(kToy));
    REQUIRE(view.check().value_or("well formed") == "well formed");
    return view;
}

Declarations staged_tables() {
    const TableView view = toy_view();
    CopyBudget budget(kToy.header.byte_size);
    StagingRegistrar registrar("tables", "tables.so");
    famspec::detail::stage_tables(view, budget, registrar);
    CHECK(registrar.errors() == std::vector<std::string>{});
    return std::move(registrar).take();
}

famspec::Parameter required(std::string name,
                            famspec::ParameterKind kind = famspec::ParameterKind::positional_or_keyword) {
    return {std::move(name), kind, famspec::Default::required()};
}
famspec::Parameter with_default(std::string name, famspec::PyLiteral value,
                                famspec::ParameterKind kind = famspec::ParameterKind::positional_or_keyword) {
    return {std::move(name), kind, famspec::Default::literal(std::move(value))};
}
// What every @module_replacement factory takes at runtime, before its options.
std::vector<famspec::Parameter> runtime_parameters() {
    return {required("module"), with_default("module_fqn", ""), with_default("context", famspec::none)};
}

// kToy's declarations, written out as the core's own objects: what staging the block must give.
Declarations expected_toy() {
    using namespace famspec::detail;
    using famspec::ParameterKind;
    StagingRegistrar registrar("expected", "expected.so");
    const std::string family = "toy_moe";
    const std::string provider = "hyper_parallel.models.toy_moe.adapter.replacements";
    registrar.add_family({.model_type = family,
                          .architecture = "ToyMoeForCausalLM",
                          .aliases = {"toy-moe"},
                          .directory_aliases = {"toymoe"},
                          .interface_blocks = {},
                          .compute_functions = {"hyper_parallel.models.toy_moe.adapter.compute.local_fn"}},
                         "here");
    registrar.add_provider_module(family, provider, "here");
    auto norm = runtime_parameters();
    norm.push_back(with_default("chunk", std::int64_t{4}));
    registrar.add_factory({.family = family,
                           .target = provider + ".replace_norm",
                           .parameters = norm,
                           .construction = famspec::Construction{"OffsetRMSNorm",
                                                                 "hyper_parallel.components.modules",
                                                                 famspec::ConstructionMode::name,
                                                                 false,
                                                                 {{"eps", famspec::ArgumentBinding::literal, "1e-6"}}},
                           .runtime_only_reason = ""},
                          "here");
    for (const auto& [name, reason] : {std::pair{".replace_linear", "builds through Linear.from_linear at runtime"},
                                       std::pair{".replace_experts", "the factory declares no construction"}}) {
        registrar.add_factory({.family = family,
                               .target = provider + name,
                               .parameters = runtime_parameters(),
                               .runtime_only_reason = reason},
                              "here");
    }
    famspec::Parameter backend = with_default("backend", "npu", ParameterKind::keyword_only);
    backend.allowed = {"npu", "sdpa"};
    registrar.add_cp_wrapper(
        {.family = family, .target = "hyper_parallel.models.toy_moe.adapter.cp.cp_wrapper", .options = {backend}},
        "here");
    registrar.add_archetype({.family = family,
                             .fingerprint = {famspec::MoeRouter::sigmoid_group, famspec::SharedExperts::gated,
                                             famspec::ExpertStorage::batched_parameters},
                             .kind = famspec::ArchetypeKind::moe_ep_routed,
                             .target_class = "ToyMoE",
                             .router_kind = famspec::MoeRouter::topk_router_module,
                             .shared = famspec::SharedExperts::additive,
                             .strip_boundary_subpatterns = {"experts.*"},
                             .compute_factory = "hyper_parallel.models.toy_moe.adapter.ep.ep_fn",
                             .options = {with_default("capacity", 1.25, ParameterKind::keyword_only)}},
                            "here");
    registrar.add_family({.model_type = "toy_dense", .architecture = "ToyDenseForCausalLM"}, "here");
    registrar.add_component(
        {.name = "OffsetRMSNorm",
         .import_module = "hyper_parallel.components.modules",
         .defining_module = "hyper_parallel.components.modules.rms_norm",
         .parameters = {with_default("hidden_size", famspec::none),
                        with_default("eps", 1e-05),
                        required("module", ParameterKind::keyword_only),
                        with_default("flag", true, ParameterKind::keyword_only),
                        {"kernel", ParameterKind::keyword_only, famspec::Default::expression("npu_forward")}},
         .source = {}},
        "here");
    REQUIRE(registrar.errors() == std::vector<std::string>{});
    return std::move(registrar).take();
}

}  // namespace

TEST_CASE("a block of tables stages exactly the declarations it was compiled from") {
    const Declarations tables = staged_tables();
    const Declarations expected = expected_toy();
    check_same_families(tables, expected);
    check_same_declarations(tables, expected);
    CHECK(tables.factories[1].where == "replacements.py:9");
    CHECK(tables.factories[0].where == "family toy_moe, factory 1");  // declared without a where
    CHECK(tables.families[0].where == "family toy_moe");
    CHECK(tables.cp_wrappers[0].where == "family toy_moe, CP wrapper 1");
    CHECK(tables.archetypes[0].where == "family toy_moe, archetype 1");
    CHECK(tables.components[0].where == "component OffsetRMSNorm");
    // The typed words, as the core holds them.
    CHECK(tables.archetypes[0]->fingerprint == famspec::MoeStructure{famspec::MoeRouter::sigmoid_group,
                                                                     famspec::SharedExperts::gated,
                                                                     famspec::ExpertStorage::batched_parameters});
    CHECK(tables.archetypes[0]->router_kind == famspec::MoeRouter::topk_router_module);
    CHECK(tables.archetypes[0]->shared == famspec::SharedExperts::additive);
}

TEST_CASE("a block's manifest is its header's identity and the keys of its rows") {
    const TableView view = toy_view();
    CopyBudget budget(kToy.header.byte_size);
    famspec::PluginManifest expected;
    expected.name = "toy";
    expected.version = "0.3.1";
    expected.description = "one of each declaration";
    expected.abi_major = famspec::kAbiMajor;
    expected.abi_minor = famspec::kAbiMinor;
    expected.table_bytes = sizeof(kToy);
    expected.fingerprint = "abi=5.1;format=2;word-bits=" + std::to_string(sizeof(void*) * 8) +
                           ";byte-order=" + (std::endian::native == std::endian::big ? "big" : "little") +
                           ";compiler=toy-cc-1";
    expected.families = {{"toy_dense", "ToyDenseForCausalLM", {}, {}},
                         {"toy_moe", "ToyMoeForCausalLM", {"toy-moe"}, {"toymoe"}}};
    expected.factories = {"hyper_parallel.models.toy_moe.adapter.replacements.replace_experts",
                          "hyper_parallel.models.toy_moe.adapter.replacements.replace_linear",
                          "hyper_parallel.models.toy_moe.adapter.replacements.replace_norm"};
    expected.archetypes = {
        {"hyper_parallel.models.toy_moe.adapter.ep.ep_fn", {"sigmoid_group", "gated", "batched_parameters"}}};
    expected.cp_wrappers = {"hyper_parallel.models.toy_moe.adapter.cp.cp_wrapper"};
    expected.components = {"hyper_parallel.components.modules.rms_norm.OffsetRMSNorm"};
    const famspec::PluginManifest manifest = famspec::detail::manifest_of(view, budget);
    CHECK(famspec::to_json(manifest) == famspec::to_json(expected));
    CHECK(manifest == expected);
    CHECK(famspec::fingerprint_field(manifest.fingerprint, "compiler") == "toy-cc-1");
}

TEST_CASE("reading a block's manifest and staging its declarations are charged to its copy budget") {
    const TableView view = toy_view();
    // A budget with less left than the toy's strings: both stop, naming the bound.
    const std::string exceeded =
        "its rows name their strings and lists so often that copying them would take more than 8 times its "
        "0-byte block";
    SUBCASE("the manifest") {
        CopyBudget budget(0);
        budget.charge(famspec::detail::kCopyAllowance - 100);
        CHECK_THROWS_WITH_AS(famspec::detail::manifest_of(view, budget), exceeded.c_str(),
                             famspec::detail::CopyBudgetExceeded);
    }
    SUBCASE("the declarations") {
        CopyBudget budget(0);
        budget.charge(famspec::detail::kCopyAllowance - 100);
        StagingRegistrar registrar("tables", "tables.so");
        CHECK_THROWS_WITH_AS(famspec::detail::stage_tables(view, budget, registrar), exceeded.c_str(),
                             famspec::detail::CopyBudgetExceeded);
    }
    SUBCASE("the bound is the block's size times the multiple, and the allowance") {
        CopyBudget budget(1000);
        CHECK_NOTHROW(budget.charge(famspec::detail::kCopyMultiple * 1000 + famspec::detail::kCopyAllowance));
        CHECK_THROWS_WITH_AS(budget.charge(1),
                             "its rows name their strings and lists so often that copying them would take more "
                             "than 8 times its 1000-byte block",
                             famspec::detail::CopyBudgetExceeded);
    }
    SUBCASE("a budget the toy fits in is enough for both") {
        CopyBudget budget(kToy.header.byte_size);
        CHECK_NOTHROW(famspec::detail::manifest_of(view, budget));
        StagingRegistrar registrar("tables", "tables.so");
        CHECK_NOTHROW(famspec::detail::stage_tables(view, budget, registrar));
        CHECK(registrar.errors().empty());
    }
}
