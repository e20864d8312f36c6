// load_plugins, inspect_plugins, resolution, summaries and cache eviction, all at once from several
// threads: every answer is the one a single thread gets. Under ThreadSanitizer (FAMSPEC_SANITIZE=
// thread) the same run is checked for data races in the loader, the registry and both caches.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "famspec/declaration_summary.hpp"
#include "famspec/famspec.hpp"
#include "famspec/plugin_inspection.hpp"
#include "process.hpp"

using famspec::Resolver;

namespace {

famspec::LoadOptions shipped_plugins() {
    famspec::LoadOptions options;
    options.directories = {famspec::test::plugin_dir()};
    return options;
}

// One question of the plan, asked under one spelling of its family.
struct Question {
    famspec::Slot slot;
    std::string target;
    std::optional<std::string> model_type;
    std::optional<std::string> module_type;
};

using Answer = std::variant<famspec::Resolution<famspec::ReplacementSpec>, famspec::Resolution<famspec::StrategySpec>>;

Answer ask(const Resolver& resolver, const Question& q) {
    if (q.slot == famspec::Slot::replace_module)
        return resolver.replacement_spec_for(q.target, q.model_type, q.module_type);
    return resolver.strategy_spec_for(q.target, q.model_type, q.slot);
}

// The same answer: equal values (not the same objects, since caches are emptied and registries differ).
bool same(const Answer& a, const Answer& b) {
    return a.index() == b.index() && std::visit(
                                         [&](const auto& x) {
                                             const auto& y = std::get<std::decay_t<decltype(x)>>(b);
                                             const bool values = x.resolved() && y.resolved()
                                                                     ? *x.resolved()->spec == *y.resolved()->spec
                                                                     : x.state.index() == y.state.index();
                                             return x.status() == y.status() && x.reason() == y.reason() &&
                                                    x.gap() == y.gap() && x.diagnostics == y.diagnostics && values;
                                         },
                                         a);
}

// Every target of the plan, under three spellings of its family and with none: more questions than
// the small caches below hold, so that answering them all evicts.
std::vector<Question> questions_of(const famspec::DeclarationSummary& summary) {
    std::vector<Question> out;
    for (const char* family : {"qwen3_moe", "Qwen3MoeForCausalLM", "qwen3-moe", ""}) {
        for (const auto& entry : summary.entries) {
            std::optional<std::string> model_type;
            if (*family != '\0') model_type = family;
            out.push_back({entry.slot, entry.target, model_type, entry.module_type});
        }
    }
    return out;
}

// Runs every job in its own thread, all released at once.
void run_together(const std::vector<std::function<void()>>& jobs) {
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (const auto& job : jobs) {
        threads.emplace_back([&go, &job] {
            while (!go.load()) std::this_thread::yield();
            job();
        });
    }
    go.store(true);
    for (auto& thread : threads) thread.join();
}

}  // namespace

TEST_CASE("loads, resolutions and cache evictions at once give the single-thread answers") {
    const auto parsed = famspec::parse_plan_file(famspec::test::source_dir() + "/examples/plans/qwen3_moe.yaml");
    REQUIRE(parsed.has_value());
    const famspec::Plan& plan = *parsed;

    // What one thread gets, before any other thread runs.
    const auto registry = famspec::load_plugins(shipped_plugins());
    REQUIRE(registry->all_ok());
    const Resolver alone(registry);
    const auto summary = alone.declaration_summary(std::nullopt, plan);
    const std::string digest = summary.digest();
    const std::vector<Question> questions = questions_of(summary);
    std::vector<Answer> expected;
    for (const Question& q : questions) expected.push_back(ask(alone, q));
    REQUIRE(questions.size() > 8);
    const auto* first = std::get_if<famspec::Resolution<famspec::ReplacementSpec>>(&expected.front());
    REQUIRE(first != nullptr);
    CHECK(first->resolved());

    // One resolver shared by every reader, with caches far smaller than the questions: readers evict
    // each other's answers all the time, and one thread empties both caches besides.
    famspec::ResolverOptions tiny;
    tiny.cache_capacity = 2;
    const Resolver shared(registry, tiny);

    std::atomic<int> wrong_answers{0};
    std::atomic<int> wrong_digests{0};
    std::atomic<int> failed_loads{0};
    std::atomic<int> failed_inspections{0};
    const auto answer_all = [&](const Resolver& resolver) {
        for (std::size_t i = 0; i < questions.size(); ++i) {
            if (!same(ask(resolver, questions[i]), expected[i])) wrong_answers.fetch_add(1);
        }
        if (resolver.declaration_summary(std::nullopt, plan).digest() != digest) wrong_digests.fetch_add(1);
    };
    const auto loader = [&] {
        for (int round = 0; round < 6; ++round) {
            const auto loaded = famspec::load_plugins(shipped_plugins());
            if (!loaded->all_ok() || loaded->plugins().size() != registry->plugins().size()) failed_loads.fetch_add(1);
            const Resolver own(loaded, tiny);
            answer_all(own);
            for (const auto& record : famspec::inspect_plugins(shipped_plugins())) {
                if (!record.ok()) failed_inspections.fetch_add(1);
            }
        }
    };
    const auto reader = [&] {
        for (int round = 0; round < 12; ++round) answer_all(shared);
    };
    const auto evicter = [&] {
        for (int round = 0; round < 200; ++round) {
            shared.clear_cache();
            const std::size_t i = round % questions.size();
            if (!same(ask(shared, questions[i]), expected[i])) wrong_answers.fetch_add(1);
        }
    };
    run_together({loader, loader, reader, reader, reader, evicter});

    CHECK(wrong_answers.load() == 0);
    CHECK(wrong_digests.load() == 0);
    CHECK(failed_loads.load() == 0);
    CHECK(failed_inspections.load() == 0);
    // Every registry loaded meanwhile answered from its own generation: the first one still answers alike.
    CHECK(alone.declaration_summary(std::nullopt, plan).digest() == digest);
}
