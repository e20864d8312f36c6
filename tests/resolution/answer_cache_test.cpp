// The resolver's cache of requests: a request asked again gets the first answer, and two requests that
// differ in any part, however slightly, never share one.
#include <doctest/doctest.h>

#include "famspec/explanation.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::Gap;
using famspec::ResolutionStatus;
using famspec::Resolver;
using famspec::Slot;
using namespace famspec::test;

TEST_CASE("a question asked again shares the first answer's value and explanation") {
    const Resolver resolver(toy_registry());
    const auto first = resolver.replacement_spec_for(kToyNorm, "ToyForCausalLM", kToyModuleType);
    REQUIRE(first.resolved());
    CHECK_FALSE(first.explanation->cache_hit);
    const auto again = resolver.replacement_spec_for(kToyNorm, "ToyForCausalLM", kToyModuleType);
    REQUIRE(again.resolved());
    CHECK(again.resolved()->spec.get() == first.resolved()->spec.get());
    CHECK(again.explanation->cache_hit);
    CHECK(again.explanation->family == "toy");
    CHECK(again.explanation->channel == "factory");
    CHECK(again.explanation->plugin == first.explanation->plugin);
    CHECK(again.explanation->rule == first.explanation->rule);
    CHECK(again.explanation->spellings_tried == first.explanation->spellings_tried);
    CHECK_FALSE(again.explanation->spellings_tried.empty());
    // The first answer's explanation is not changed by the second question.
    CHECK_FALSE(first.explanation->cache_hit);
}

TEST_CASE("a not-covered answer asked again keeps its reason and gap") {
    const Resolver resolver(toy_registry());
    const auto first = resolver.replacement_spec_for(kToyNorm, "unregistered_model", kToyModuleType);
    const auto again = resolver.replacement_spec_for(kToyNorm, "unregistered_model", kToyModuleType);
    CHECK(again.status() == ResolutionStatus::not_covered);
    CHECK(again.gap() == Gap::unknown_family);
    CHECK(again.reason() == first.reason());
    CHECK(std::holds_alternative<famspec::NotCovered>(again.state));
    CHECK(again.explanation->cache_hit);
}

TEST_CASE("an absent part and an empty one are different questions") {
    const Resolver resolver(toy_registry());
    // No model_type: the family is inferred from the path. An empty one names no family.
    REQUIRE(resolver.replacement_spec_for(kToyNorm, std::nullopt, kToyModuleType).resolved());
    const auto empty = resolver.replacement_spec_for(kToyNorm, std::string(), kToyModuleType);
    CHECK(empty.status() == ResolutionStatus::not_covered);
    CHECK(empty.gap() == Gap::unknown_family);
    // And the other way round, for the module_type.
    const auto missing = resolver.replacement_spec_for(kToyNorm, "toy", std::nullopt);
    CHECK(missing.gap() == Gap::missing_module_type);
    CHECK(resolver.replacement_spec_for(kToyNorm, "toy", kToyModuleType).resolved());
}

TEST_CASE("options are told apart by type and by their printed form") {
    const Resolver resolver(toy_registry());
    auto reason = [&](const famspec::Options& options) {
        return resolver.strategy_spec_for(kToyEp, "toy", Slot::local_compute_fn, options).reason();
    };
    CHECK(reason({{"use_grouped_gemm", 0.0}}) ==
          "option 'use_grouped_gemm' expects bool (default False), got float 0.0");
    CHECK(reason({{"use_grouped_gemm", -0.0}}) ==
          "option 'use_grouped_gemm' expects bool (default False), got float -0.0");
    CHECK(reason({{"use_grouped_gemm", 0}}) == "option 'use_grouped_gemm' expects bool (default False), got int 0");
    CHECK(resolver.strategy_spec_for(kToyEp, "toy", Slot::local_compute_fn, {{"use_grouped_gemm", false}}).resolved());
    // The slot is part of the question.
    CHECK(resolver.strategy_spec_for(kToyEp, "toy", Slot::inner_wrapper).gap() == Gap::wrong_slot);
    CHECK(resolver.strategy_spec_for(kToyEp, "toy", Slot::local_compute_fn).resolved());
}

TEST_CASE("clear_cache forgets the questions too") {
    const Resolver resolver(toy_registry());
    const auto first = resolver.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    resolver.clear_cache();
    const auto after = resolver.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    REQUIRE(after.resolved());
    CHECK_FALSE(after.explanation->cache_hit);
    CHECK(*after.resolved()->spec == *first.resolved()->spec);
}
