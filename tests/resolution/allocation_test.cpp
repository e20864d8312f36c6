// The read paths that a runtime calls on every rank and every module allocate nothing: a question
// answered before, and the registry's family lookup. Counted, not timed: this binary replaces the
// global operator new with one that counts the calls made on the calling thread (counting_new.hpp).
#include <doctest/doctest.h>

#include <thread>

#include "counting_new.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::Resolver;
using famspec::Slot;
using namespace famspec::test;

namespace {

// The allocations `f` makes on this thread.
template <class F>
std::size_t allocations_of(F&& f) {
    const std::size_t before = famspec::test::t_allocations;
    f();
    return famspec::test::t_allocations - before;
}

}  // namespace

TEST_CASE("the counter sees an allocation made through the library") {
    // A miss builds the answer: if this counted nothing, the zeros below would prove nothing.
    const Resolver resolver(toy_registry());
    const std::optional<std::string> family = "toy";
    const std::optional<std::string> module_type = kToyModuleType;
    bool resolved = false;
    CHECK(allocations_of([&] { resolved = resolver.replacement_spec_for(kToyNorm, family, module_type).resolved(); }) >
          0);
    CHECK(resolved);
}

TEST_CASE("a question answered before allocates nothing") {
    const Resolver resolver(toy_registry());
    const std::optional<std::string> family = "ToyForCausalLM";
    const auto replacement = famspec::test::request(kToyNorm, family, Slot::replace_module, {}, kToyModuleType);
    const auto strategy = famspec::test::request(kToyEp, family, Slot::local_compute_fn);
    const auto first = resolver.replacement_spec_for(replacement);
    REQUIRE(first.resolved());
    const auto first_strategy = resolver.strategy_spec_for(strategy);
    REQUIRE(first_strategy.resolved());
    // No assertion inside a counted call: only the library's allocations are counted.
    for (int i = 0; i < 3; ++i) {
        const famspec::ReplacementSpec* replacement_spec = nullptr;
        const famspec::StrategySpec* strategy_spec = nullptr;
        CHECK(allocations_of(
                  [&] { replacement_spec = resolver.replacement_spec_for(replacement).resolved()->spec.get(); }) == 0);
        CHECK(allocations_of([&] { strategy_spec = resolver.strategy_spec_for(strategy).resolved()->spec.get(); }) ==
              0);
        CHECK(replacement_spec == first.resolved()->spec.get());
        CHECK(strategy_spec == first_strategy.resolved()->spec.get());
    }
}

TEST_CASE("another thread's answer is found without allocating, from the first time it asks") {
    const Resolver resolver(toy_registry());
    const auto question = famspec::test::request(kToyNorm, "toy", Slot::replace_module, {}, kToyModuleType);
    REQUIRE(resolver.replacement_spec_for(question).resolved());
    std::size_t first = 1, second = 1;
    bool resolved = true;
    std::thread([&] {
        const auto ask = [&] { resolved = resolved && resolver.replacement_spec_for(question).resolved(); };
        first = allocations_of(ask);
        second = allocations_of(ask);
    }).join();
    CHECK(resolved);
    CHECK(first == 0);
    CHECK(second == 0);
}

TEST_CASE("the registry's family lookup allocates nothing, whichever rule matches") {
    const auto registry = toy_registry();
    // An exact model_type, a normalised key (architecture, alias), a directory alias, an unknown name.
    for (const char* spelling : {"toy", "ToyForCausalLM", "toy_text", "toy-dir", "unregistered_model"}) {
        CAPTURE(spelling);
        const famspec::RegisteredFamily* found = nullptr;
        CHECK(allocations_of([&] { found = registry->find_family(spelling); }) == 0);
        CHECK(found == registry->explain_family(spelling).family);
    }
}
