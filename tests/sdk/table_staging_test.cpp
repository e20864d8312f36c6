// The core stages a plugin's tables as it stages the same declarations made by a register function
// with the declare:: builders: the same families, factories, wrappers, archetypes and components,
// answer for answer. Only `where` differs: the tables carry the runtime source's file:line.
#include "registry/table_staging.hpp"

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "famspec/sdk/declare.hpp"
#include "famspec/sdk/plugin.hpp"
#include "registry/staging_registrar.hpp"
#include "toy_tables.hpp"

extern "C" const famspec::PluginDescriptor famspec_plugin_descriptor;  // qwen3_table_plugin.cpp

namespace {

using famspec::detail::StagingRegistrar;
using Declarations = StagingRegistrar::Declarations;

template <class Strings>
std::vector<std::string> strings(const Strings& listed) {
    return {listed.begin(), listed.end()};
}
template <class T>
std::vector<T> copied(std::span<const T> listed) {
    return {listed.begin(), listed.end()};
}

void check_same_families(const Declarations& tables, const Declarations& builders) {
    REQUIRE(tables.families.size() == builders.families.size());
    for (std::size_t i = 0; i < tables.families.size(); ++i) {
        const auto& ours = tables.families[i];
        const auto& theirs = builders.families[i];
        CAPTURE(theirs->model_type());
        CHECK(ours->model_type() == theirs->model_type());
        CHECK(ours->architecture() == theirs->architecture());
        CHECK(strings(ours->aliases()) == strings(theirs->aliases()));
        CHECK(strings(ours->directory_aliases()) == strings(theirs->directory_aliases()));
        CHECK(copied(ours->interface_blocks()) == copied(theirs->interface_blocks()));
        CHECK(strings(ours->compute_functions()) == strings(theirs->compute_functions()));
        CHECK(ours.provider_modules == theirs.provider_modules);
    }
}

void check_same_declarations(const Declarations& tables, const Declarations& builders) {
    REQUIRE(tables.factories.size() == builders.factories.size());
    for (std::size_t i = 0; i < tables.factories.size(); ++i) {
        const auto& ours = *tables.factories[i];
        const auto& theirs = *builders.factories[i];
        CAPTURE(theirs.target());
        CHECK(ours.family() == theirs.family());
        CHECK(ours.target() == theirs.target());
        CHECK(copied(ours.parameters()) == copied(theirs.parameters()));
        REQUIRE((ours.construction() == nullptr) == (theirs.construction() == nullptr));
        if (ours.construction() != nullptr) CHECK(*ours.construction() == *theirs.construction());
        CHECK(ours.runtime_only_reason() == theirs.runtime_only_reason());
    }
    REQUIRE(tables.cp_wrappers.size() == builders.cp_wrappers.size());
    for (std::size_t i = 0; i < tables.cp_wrappers.size(); ++i) {
        CHECK(tables.cp_wrappers[i]->target() == builders.cp_wrappers[i]->target());
        CHECK(copied(tables.cp_wrappers[i]->options()) == copied(builders.cp_wrappers[i]->options()));
    }
    REQUIRE(tables.archetypes.size() == builders.archetypes.size());
    for (std::size_t i = 0; i < tables.archetypes.size(); ++i) {
        const auto& ours = *tables.archetypes[i];
        const auto& theirs = *builders.archetypes[i];
        CHECK(ours.fingerprint() == theirs.fingerprint());
        CHECK((std::vector<std::string_view>{ours.kind(), ours.target_class(), ours.router_kind(), ours.shared(),
                                             ours.compute_factory()}) ==
              std::vector<std::string_view>{theirs.kind(), theirs.target_class(), theirs.router_kind(), theirs.shared(),
                                            theirs.compute_factory()});
        CHECK(strings(ours.strip_boundary_subpatterns()) == strings(theirs.strip_boundary_subpatterns()));
        CHECK(copied(ours.options()) == copied(theirs.options()));
    }
    REQUIRE(tables.components.size() == builders.components.size());
    for (std::size_t i = 0; i < tables.components.size(); ++i) {
        const auto& ours = *tables.components[i];
        const auto& theirs = *builders.components[i];
        CHECK(famspec::defining_path(ours) == famspec::defining_path(theirs));
        CHECK(ours.import_module() == theirs.import_module());
        CHECK(copied(ours.parameters()) == copied(theirs.parameters()));
        CHECK(copied(ours.source()) == copied(theirs.source()));
    }
}

Declarations staged_tables(const famspec::tables::TableHeader& block) {
    const famspec::tables::TableView view(block);
    REQUIRE_FALSE(view.check().has_value());
    StagingRegistrar registrar("tables", "tables.so", nullptr);
    famspec::detail::stage_tables(view, registrar);
    CHECK(registrar.errors() == std::vector<std::string>{});
    return std::move(registrar).take();
}

// kToy's declarations, made as a register function makes them today.
void register_toy(famspec::Registrar& registrar) {
    using namespace famspec::declare;
    Family toy{"toy_moe", "ToyMoeForCausalLM"};
    toy.alias("toy-moe")
        .directory_alias("toymoe")
        .provider("hyper_parallel.models.toy_moe.adapter.replacements")
        .compute_function("hyper_parallel.models.toy_moe.adapter.compute.local_fn");
    toy.factory("replace_norm")
        .replaces("OffsetRMSNorm", "hyper_parallel.components.modules")
        .pass("eps", "1e-6")
        .option("chunk", 4);
    toy.factory("hyper_parallel.models.toy_moe.adapter.replacements.replace_linear")
        .runtime_only("builds through Linear.from_linear at runtime");
    toy.factory("replace_experts");
    toy.cp_wrapper("hyper_parallel.models.toy_moe.adapter.cp.cp_wrapper",
                   {kw_only, param("backend", "npu", one_of{"npu", "sdpa"})});
    toy.archetype({.fingerprint = {"softmax_topk", "gated", "module_list"},
                   .target_class = "ToyMoE",
                   .router_kind = "softmax_topk",
                   .shared = "additive",
                   .strip_boundary_subpatterns = {"experts.*"},
                   .compute_factory = "hyper_parallel.models.toy_moe.adapter.ep.ep_fn"});
    toy.register_into(registrar);
    Family{"toy_dense", "ToyDenseForCausalLM"}.register_into(registrar);
    Components{"hyper_parallel.components.modules"}
        .component({.name = "OffsetRMSNorm",
                    .submodule = "rms_norm",
                    .signature = {param("hidden_size", famspec::none), param("eps", 1e-05), kw_only, param("module"),
                                  param("flag", true), param("kernel", expression("npu_forward"))}})
        .register_into(registrar);
}

}  // namespace

TEST_CASE("a block of tables stages what the same declarations made with declare:: stage") {
    const Declarations tables = staged_tables(kToy.header);
    StagingRegistrar registrar("builders", "builders.so", nullptr);
    register_toy(registrar);
    REQUIRE(registrar.errors() == std::vector<std::string>{});
    const Declarations builders = std::move(registrar).take();
    check_same_families(tables, builders);
    check_same_declarations(tables, builders);
    CHECK(tables.factories[1].where == "replacements.py:9");
    CHECK(tables.factories[0].where == "family toy_moe, factory 1");  // declared without a where
}

TEST_CASE("qwen3 in the table form stages what the shipped qwen3 plugin registers") {
    const std::string path = std::string(FAMSPEC_TEST_PLUGIN_DIR) + "/famspec_qwen3.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE_MESSAGE(library != nullptr, dlerror());
    const auto* shipped = static_cast<const famspec::RegisterDescriptor*>(dlsym(library, famspec::kEntrySymbol));
    REQUIRE(shipped != nullptr);
    REQUIRE(shipped->abi_major == famspec::kRegisterAbiMajor);
    StagingRegistrar registrar("qwen3", path, nullptr);
    shipped->register_plugin(registrar);
    REQUIRE(registrar.errors() == std::vector<std::string>{});
    CHECK(registrar.manifest(famspec_plugin_descriptor).factories.size() == 3);
    const Declarations builders = std::move(registrar).take();
    const Declarations tables = staged_tables(*famspec_plugin_descriptor.tables);
    check_same_families(tables, builders);
    check_same_declarations(tables, builders);
    // Never unloaded: the staged objects' code is the plugin's (famspec never unloads a plugin either).
}
