// The resolver's cache seen from several threads: an answer one thread kept serves the others, and a
// clear_cache from any thread reaches every thread.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "famspec/explanation.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::Resolver;
using namespace famspec::test;

namespace {

const std::optional<std::string> kFamily = "toy";
const std::optional<std::string> kModuleType = kToyModuleType;

bool cached(const Resolver& resolver) {
    return resolver.replacement_spec_for(kToyNorm, kFamily, kModuleType).explanation->cache_hit;
}

}  // namespace

TEST_CASE("clear_cache on one thread reaches the answers another thread keeps") {
    const Resolver resolver(toy_registry());
    std::atomic<int> step{0};
    bool before_clear = false, after_clear = true, again = false;
    std::thread other([&] {
        (void)cached(resolver);           // answered and kept
        before_clear = cached(resolver);  // from the cache
        step.store(1);
        while (step.load() != 2) std::this_thread::yield();
        after_clear = cached(resolver);  // cleared meanwhile: answered afresh
        again = cached(resolver);
    });
    while (step.load() != 1) std::this_thread::yield();
    resolver.clear_cache();
    step.store(2);
    other.join();
    CHECK(before_clear);
    CHECK_FALSE(after_clear);
    CHECK(again);
}

TEST_CASE("threads asking the same questions while the cache is cleared all get the same answer") {
    const Resolver resolver(toy_registry());
    const auto expected = resolver.replacement_spec_for(kToyNorm, kFamily, kModuleType);
    REQUIRE(expected.resolved());
    std::atomic<bool> stop{false};
    std::atomic<int> wrong{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; ++t) {
        readers.emplace_back([&] {
            for (int i = 0; i < 2000; ++i) {
                const auto answer = resolver.replacement_spec_for(kToyNorm, kFamily, kModuleType);
                if (!answer.resolved() || *answer.resolved()->spec != *expected.resolved()->spec ||
                    answer.explanation->family != expected.explanation->family)
                    wrong.fetch_add(1);
            }
        });
    }
    std::thread clearer([&] {
        while (!stop.load()) resolver.clear_cache();
    });
    for (auto& reader : readers) reader.join();
    stop.store(true);
    clearer.join();
    CHECK(wrong.load() == 0);
}
