// Readers of one frozen registry and of one resolver, from many threads: every thread sees what one
// thread sees, and concurrent callers of one question share one object.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "famspec/explanation.hpp"
#include "famspec/famspec.hpp"
#include "famspec/registry_entries.hpp"
#include "process.hpp"
#include "toy_registry.hpp"

using famspec::Resolver;
using namespace famspec::test;

namespace {

const std::string kDirect = "hyper_parallel.components.toy.norms.ToyNorm";

std::shared_ptr<const famspec::Registry> load(std::vector<std::filesystem::path> directories) {
    famspec::LoadOptions options;
    options.directories = std::move(directories);
    return famspec::load_plugins(options);
}

}  // namespace

TEST_CASE("many threads reading one frozen registry agree") {
    const auto registry = load({famspec::test::plugin_dir(), fixture_dir("zoo_good")});
    REQUIRE(registry->all_ok());
    const std::vector<std::string> spellings = {
        "zoo_good",
        "ZooGoodForCausalLM",
        "zoo-good",
        "ZOO_GOOD",
        "zoogood",
        "zoo-good-chat",
        "ZooGoodChat",
        "qwen3_moe",
        "Qwen3MoeForCausalLM",
        "qwen3-moe",
        "QWEN3MOE",
        "unknown_family",
        "",
        "llama",
        "zoo_goodForCausalLM",
    };
    std::vector<std::string> targets;
    for (const auto& factory : registry->factories()) targets.emplace_back(factory->target);
    for (const auto& wrapper : registry->cp_wrappers()) targets.emplace_back(wrapper->target);
    targets.emplace_back("hyper_parallel.models.zoo_good.adapter.replacements.no_such_factory");

    // Everything a reader can ask, as one string, so that threads can be compared with each other.
    auto read_all = [&]() {
        std::string out;
        for (const auto& spelling : spellings) {
            const auto lookup = registry->explain_family(spelling);
            const auto* family = registry->find_family(spelling);
            out += spelling + "=" + (family ? std::string((*family)->model_type) : "-") + "/" + lookup.rule +
                   (lookup.family == family ? ";" : " (explained another family);");
        }
        for (const auto& target : targets) {
            const auto* factory = registry->find_factory(target);
            const auto* wrapper = registry->find_cp_wrapper(target);
            out += target + "=" + (factory ? factory->plugin + ":" + std::string((*factory)->family) : "-") + "," +
                   (wrapper ? std::string((*wrapper)->family) : "-") + ";";
        }
        for (const auto& archetype : registry->archetypes()) {
            const auto* by_factory = registry->find_archetype(archetype->compute_factory);
            out += std::string(by_factory ? (*by_factory)->family : "-") + "," +
                   std::string(by_factory ? (*by_factory)->target_class : "-") + ";";
        }
        const auto* component = registry->find_component("zoo.components", "ZooNorm");
        const auto* dotted = registry->find_component("zoo.components.norm.ZooNorm");
        out += std::string(component ? (*component)->defining_module : "-") + "," +
               std::string(dotted ? (*dotted)->import_module : "-") + ";";
        for (const auto& record : registry->plugins()) out += record.path + (record.ok() ? "+" : "!");
        return out;
    };
    const std::string expected = read_all();
    CHECK(expected.find("ZooGoodChat=zoo_good/") != std::string::npos);
    CHECK(expected.find("Qwen3MoeForCausalLM=qwen3_moe/") != std::string::npos);
    CHECK(expected.find("unknown_family=-/") != std::string::npos);
    CHECK(expected.find("zoo.components.norm,zoo.components;") != std::string::npos);
    CHECK(expected.find("qwen3_moe,Qwen3MoeSparseMoeBlock;") != std::string::npos);

    constexpr int kThreads = 8;
    constexpr int kRounds = 200;
    std::atomic<bool> go{false};
    std::atomic<int> disagreements{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            while (!go.load()) std::this_thread::yield();
            for (int round = 0; round < kRounds; ++round) {
                if (read_all() != expected) disagreements.fetch_add(1);
            }
        });
    }
    go.store(true);
    for (auto& thread : threads) thread.join();
    CHECK(disagreements.load() == 0);
}

TEST_CASE("the cache is bounded, and concurrent callers share one object") {
    famspec::ResolverOptions options;
    options.cache_capacity = 1;
    const Resolver tiny(toy_registry(), options);
    const auto a = tiny.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    const auto b = tiny.replacement_spec_for(kDirect, "toy", kToyModuleType);  // evicts a
    const auto a_again = tiny.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    REQUIRE(a_again.resolved());
    CHECK_FALSE(a_again.explanation->cache_hit);
    CHECK(*a_again.resolved()->spec == *a.resolved()->spec);

    const Resolver shared(toy_registry());
    std::vector<const famspec::ReplacementSpec*> seen(8, nullptr);
    std::vector<int> changed(seen.size(), 0);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i) {
        threads.emplace_back([&, i] {
            for (int round = 0; round < 200; ++round) {
                const auto r = shared.replacement_spec_for(kToyNorm, "ToyForCausalLM", kToyModuleType);
                if (seen[i] == nullptr) seen[i] = r.resolved()->spec.get();
                if (seen[i] != r.resolved()->spec.get()) ++changed[i];
            }
        });
    }
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < seen.size(); ++i) {
        CHECK(seen[i] == seen[0]);
        CHECK(changed[i] == 0);
    }
    REQUIRE(seen[0] != nullptr);
    // Another spelling is another request: an equal answer.
    CHECK(*shared.replacement_spec_for(kToyNorm, "toy", kToyModuleType).resolved()->spec == *seen[0]);
}
