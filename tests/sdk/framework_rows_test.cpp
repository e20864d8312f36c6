// ABI 5.1: the framework's archetypes and CP wrappers, owned by no family, and the CP wrappers a family
// borrows from another family's plugin. compile() writes them where the header says, the core claims
// the framework's and not the borrowed ones, stages them, and still reads a block of ABI 5.0, whose
// header ends before them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "famspec/plugin_manifest.hpp"
#include "famspec/sdk/tables.hpp"
#include "famspec/table_view.hpp"
#include "loading/table_manifest.hpp"
#include "registry/copy_budget.hpp"
#include "registry/staging_registrar.hpp"
#include "registry/table_staging.hpp"

namespace {

using namespace famspec::tables;
using famspec::detail::CopyBudget;
using famspec::detail::StagingRegistrar;

constexpr const char* kFrameworkEp = "hyper_parallel.distributed.expert_parallel.recipes.deepseekv3_ep_compute_fn";
constexpr const char* kFrameworkCp = "hyper_parallel.distributed.context_parallel.wrappers.sdpa_hf_hybrid_cp_wrapper";
constexpr const char* kLent = "hyper_parallel.models.lender.adapter.context_parallel.lent_cp_wrapper";

constexpr auto kFramework = compile([](auto use) {
    return use(Identity{.name = "framework", .version = "1.0.0", .description = "rows of no family"},
               Plugin{.archetypes = {{.fingerprint = {.router = MoeRouter::topk_router_module,
                                                      .shared_experts = SharedExperts::additive,
                                                      .expert_storage = ExpertStorage::batched_parameters},
                                      .target_class = "DeepseekV3MoE",
                                      .router_kind = MoeRouter::sigmoid_group,
                                      .shared = SharedExperts::additive,
                                      .compute_factory = kFrameworkEp,
                                      .where = "archetypes.py:26"}},
                      .cp_wrappers = {{.target = kFrameworkCp, .options = {param("ulysses_degree")}}}});
});

// A family with a wrapper of its own, borrowing another plugin's: one in the family, one amended.
constexpr auto kBorrower = compile([](auto use) {
    return use(
        Identity{.name = "borrower", .version = "1.0.0", .description = "borrows a CP wrapper"},
        Plugin{.families = {{.model_type = "borrower",
                             .architecture = "BorrowerForCausalLM",
                             .cp_wrappers = {{.target = "hyper_parallel.models.borrower.adapter.cp.own_wrapper"}},
                             .borrowed_cp_wrappers = {kLent}}},
               .amendments = {{.model_type = "borrower", .borrowed_cp_wrappers = {kFrameworkCp}}}});
});

// The header places the framework's rows and the borrowed ones; a family's rows are not among them.
static_assert(kFramework.header.abi_minor == 1 && kFramework.header.header_size == sizeof(TableHeader));
static_assert(kFramework.header.archetypes.first == 0 && kFramework.header.archetypes.count == 1 &&
              kFramework.header.cp_wrappers.first == 0 && kFramework.header.cp_wrappers.count == 1);
static_assert(kFramework.header.array<FamilyRow>().count == 0 &&
              kFramework.header.array<BorrowedCpWrapperRow>().count == 0);
static_assert(kBorrower.header.archetypes.count == 0 && kBorrower.header.cp_wrappers.count == 0 &&
              kBorrower.header.array<CpWrapperRow>().count == 1);
static_assert(kBorrower.header.array<BorrowedCpWrapperRow>().count == 2 &&
              kBorrower.text(kBorrower.rows<BorrowedCpWrapperRow>()[0].family) == "borrower" &&
              kBorrower.text(kBorrower.rows<BorrowedCpWrapperRow>()[0].target) == kLent &&
              kBorrower.text(kBorrower.rows<BorrowedCpWrapperRow>()[1].target) == kFrameworkCp);

template <class Block>
TableView checked(const Block& block) {
    const TableView view(block.header, sizeof(block));
    REQUIRE(view.check().value_or("well formed") == "well formed");
    return view;
}

famspec::PluginManifest manifest(const TableView& view) {
    CopyBudget budget(view.header().byte_size);
    return famspec::detail::manifest_of(view, budget);
}

StagingRegistrar staged(const TableView& view) {
    CopyBudget budget(view.header().byte_size);
    StagingRegistrar registrar("tables", "tables.so");
    famspec::detail::stage_tables(view, budget, registrar);
    return registrar;
}

}  // namespace

TEST_CASE("the framework's archetypes and CP wrappers are claimed and staged as no family's") {
    const TableView view = checked(kFramework);
    const famspec::PluginManifest claims = manifest(view);
    CHECK(claims.cp_wrappers == std::vector<std::string>{kFrameworkCp});
    REQUIRE(claims.archetypes.size() == 1);
    CHECK(claims.archetypes[0].compute_factory == kFrameworkEp);
    CHECK(claims.archetypes[0].fingerprint ==
          std::vector<std::string>{"topk_router_module", "additive", "batched_parameters"});
    StagingRegistrar registrar = staged(view);
    REQUIRE(registrar.errors() == std::vector<std::string>{});
    const auto declared = std::move(registrar).take();
    REQUIRE(declared.archetypes.size() == 1);
    CHECK(declared.archetypes[0]->family == "");
    CHECK(declared.archetypes[0]->target_class == "DeepseekV3MoE");
    CHECK(declared.archetypes[0].where == "archetypes.py:26");
    REQUIRE(declared.cp_wrappers.size() == 1);
    CHECK(declared.cp_wrappers[0]->family == "");
    CHECK(declared.cp_wrappers[0]->target == kFrameworkCp);
    CHECK(declared.cp_wrappers[0].where == "the framework, CP wrapper 1");
    CHECK(declared.cp_wrappers[0]->options.size() == 1);
}

TEST_CASE("a borrowed CP wrapper answers for its family and claims nothing") {
    const TableView view = checked(kBorrower);
    CHECK(manifest(view).cp_wrappers ==
          std::vector<std::string>{"hyper_parallel.models.borrower.adapter.cp.own_wrapper"});
    StagingRegistrar registrar = staged(view);
    REQUIRE(registrar.errors() == std::vector<std::string>{});
    const auto declared = std::move(registrar).take();
    REQUIRE(declared.families.size() == 1);
    // Sorted, so that the resolver finds one by bisection.
    CHECK(declared.families[0].borrowed_cp_wrappers == std::vector<std::string>{kFrameworkCp, kLent});
    CHECK(declared.cp_wrappers.size() == 1);
}

TEST_CASE("a borrowed CP wrapper of no family of the plugin, or of one the plugin declares, is refused") {
    SUBCASE("no family of the plugin") {
        auto block = kBorrower;
        block.rows<BorrowedCpWrapperRow>()[0].family = block.header.name;  // "borrower" is the plugin's name too
        block.rows<BorrowedCpWrapperRow>()[0].family.size = 3;             // "bor"
        CHECK(staged(checked(block)).errors() ==
              std::vector<std::string>{std::string("borrowed CP wrapper '") + kLent +
                                       "' (family bor, borrowed CP wrapper 1) names family 'bor', which this plugin "
                                       "does not register"});
    }
    SUBCASE("a wrapper the plugin declares itself") {
        auto block = kBorrower;
        block.rows<BorrowedCpWrapperRow>()[1].target = block.rows<CpWrapperRow>()[0].target;
        CHECK(staged(checked(block)).errors() ==
              std::vector<std::string>{"borrowed CP wrapper 'hyper_parallel.models.borrower.adapter.cp.own_wrapper' "
                                       "(family borrower, borrowed CP wrapper 2) is declared by this plugin too "
                                       "(family borrower, CP wrapper 1): a family borrows only another plugin's "
                                       "wrapper"});
    }
}

TEST_CASE("a block of ABI 5.0 is read without the fields its header lacks") {
    // Built as a 5.0 plugin was: its header ends at kHeaderSizeAbi50. The bytes after it, which a 5.1
    // header would read as the borrowed wrappers' Section and the framework's ranges, say otherwise.
    auto block = kFramework;
    block.header.abi_minor = 0;
    block.header.header_size = kHeaderSizeAbi50;
    block.header.array<BorrowedCpWrapperRow>() = Section{0, 1000};
    const TableView view = checked(block);
    CHECK(view.header().header_size == kHeaderSizeAbi50);
    CHECK(view.header().archetypes.count == 0);
    CHECK(view.header().cp_wrappers.count == 0);
    CHECK(view.borrowed_cp_wrappers().empty());
    const famspec::PluginManifest claims = manifest(view);
    CHECK(claims.abi_minor == 0);
    CHECK(claims.archetypes.empty());
    CHECK(claims.cp_wrappers.empty());
    StagingRegistrar registrar = staged(view);
    CHECK(registrar.errors().empty());
    CHECK(std::move(registrar).take().archetypes.empty());
}

TEST_CASE("a framework range outside its array is refused") {
    auto block = kFramework;
    block.header.cp_wrappers.count = 2;
    CHECK(TableView(block.header, sizeof(block)).check().value_or("well formed") ==
          "a table row names a string or list outside its array");
}
