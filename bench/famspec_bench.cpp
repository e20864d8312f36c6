// famspec-bench [PLUGIN_DIR] [PLAN]
//
// Prints what an operator and an embedding runtime pay: a cold CLI run (process start, plugin
// load, resolution of a whole plan), an in-process load, one resolution uncached and cached, a whole
// declaration summary, the memory the plugins add, and the read throughput of 1 vs 2 threads.
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/registry_description.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

template <class F>
double median_us(int runs, F&& f) {
    std::vector<double> samples;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        f();
        samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    return median(samples);
}

long resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    }
    return -1;
}

int run_quietly(const std::vector<std::string>& argv) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 01, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", 01, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The source audit of every shipped family on the fixture runtime tree, as an operator runs it:
// `famspec audit` starts Debian's python3, loads the plugins and reads the tree with ast.
void print_audit_figures(const std::string& plugin_dir, const famspec::Registry& registry) {
    const double describe = median_us(30, [&] { (void)famspec::describe_registry_json(registry); });
    const int status = run_quietly(
        {FAMSPEC_BENCH_CLI, "--plugin-path", plugin_dir, "audit", "--source-root", FAMSPEC_BENCH_AUDIT_ROOT});
    std::printf("\naudit (%s)\n", FAMSPEC_BENCH_AUDIT_ROOT);
    std::printf("%-52s %9.0f us\n", "describe_registry_json (what the audit reads)", describe);
    if (status != 0) {
        std::printf("  famspec audit exited %d: whole-process figures skipped\n", status);
        return;
    }
    const double python = median_us(7, [&] { run_quietly({"/usr/bin/python3", "-c", "pass"}); });
    const double audit = median_us(7, [&] {
        run_quietly(
            {FAMSPEC_BENCH_CLI, "--plugin-path", plugin_dir, "audit", "--source-root", FAMSPEC_BENCH_AUDIT_ROOT});
    });
    std::printf("%-52s %9.0f us\n", "famspec audit, all shipped families, whole process", audit);
    std::printf("%-52s %9.0f us\n", "python3 -c pass, whole process (the floor)", python);
    std::printf("  audit / bare interpreter start:            %6.1fx\n", audit / python);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string plugin_dir = argc > 1 ? argv[1] : FAMSPEC_BENCH_PLUGIN_DIR;
    const std::string plan_path = argc > 2 ? argv[2] : FAMSPEC_BENCH_PLAN;
    const auto parsed = famspec::parse_plan_file(plan_path);
    if (!parsed.plan) {
        std::fprintf(stderr, "famspec-bench: %s\n", parsed.error->to_string().c_str());
        return 2;
    }
    const famspec::Plan& plan = *parsed.plan;
    std::printf("famspec-bench: plugins %s, plan %s (%zu entries)\n", plugin_dir.c_str(), plan_path.c_str(),
                plan.entries.size());

    // 1. What an operator waits for: a whole CLI run, from exec to digest.
    const double cold_cli = median_us(15, [&] {
        run_quietly({FAMSPEC_BENCH_CLI, "--plugin-path", plugin_dir, "summary", "--digest", plan_path});
    });
    const double cold_list = median_us(15, [&] {
        run_quietly({FAMSPEC_BENCH_CLI, "--plugin-path", plugin_dir, "list"});
    });

    // 2. In-process: the first load maps the libraries; later loads find them resident.
    const long rss_before = resident_kib();
    famspec::LoadOptions options;
    options.directories.emplace_back(plugin_dir);
    auto start = Clock::now();
    auto registry = famspec::load_plugins(options);
    const double first_load = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    const long rss_after = resident_kib();
    const double reload = median_us(30, [&] { registry = famspec::load_plugins(options); });
    const double inspect = median_us(30, [&] { (void)famspec::inspect_plugins(options); });

    // 3. Resolution: a whole summary uncached, then cached; and one target of each kind.
    const famspec::Resolver resolver(registry);
    const double summary_cold = median_us(30, [&] {
        resolver.clear_cache();
        (void)resolver.declaration_summary(std::nullopt, plan).digest();
    });
    (void)resolver.declaration_summary(std::nullopt, plan);
    const double summary_warm = median_us(30, [&] { (void)resolver.declaration_summary(std::nullopt, plan).digest(); });
    const double resolve_warm = median_us(30,
                                          [&] {
                                              for (int i = 0; i < 1000; ++i)
                                                  (void)resolver.declaration_summary(std::nullopt, plan);
                                          }) /
                                (1000.0 * static_cast<double>(std::max<std::size_t>(plan.entries.size(), 1)));

    // 4. Lock-free reads of the frozen registry: throughput with 1 and 2 threads.
    auto lookups = [&](int n) {
        std::size_t found = 0;
        for (int i = 0; i < n; ++i) {
            found += registry->find_family(i % 2 == 0 ? "Qwen3MoeForCausalLM" : "deepseek_v2").family != nullptr;
        }
        return found;
    };
    constexpr int kLookups = 200000;
    const double one_thread = median_us(5, [&] { (void)lookups(kLookups); });
    const double two_threads = median_us(5, [&] {
        std::thread other([&] { (void)lookups(kLookups); });
        (void)lookups(kLookups);
        other.join();
    });

    std::printf("\n%-52s %12s\n", "measure", "median");
    std::printf("%-52s %9.0f us\n", "CLI summary --digest, whole process (cold)", cold_cli);
    std::printf("%-52s %9.0f us\n", "CLI list, whole process (manifests only)", cold_list);
    std::printf("%-52s %9.0f us\n", "load_plugins, first in this process", first_load);
    std::printf("%-52s %9.0f us\n", "load_plugins, libraries already resident", reload);
    std::printf("%-52s %9.0f us\n", "inspect_plugins (manifests only)", inspect);
    std::printf("%-52s %9.0f us\n", "declaration_summary + digest, cache cleared", summary_cold);
    std::printf("%-52s %9.0f us\n", "declaration_summary + digest, cache warm", summary_warm);
    std::printf("%-52s %9.2f us\n", "one target, cache warm (per entry)", resolve_warm);
    std::printf("%-52s %9ld KiB\n", "resident memory added by loading the plugins", rss_after - rss_before);
    std::printf("\nratios\n");
    std::printf("  summary cold / warm:                       %6.1fx\n", summary_cold / summary_warm);
    std::printf("  first load / resident reload:              %6.1fx\n", first_load / reload);
    std::printf("  load_plugins / inspect_plugins (resident): %6.1fx\n", reload / inspect);
    std::printf("  registry reads, 2 threads vs 1 (2x work):  %6.2fx the time of 1 thread\n", two_threads / one_thread);
    std::printf("  plugins loaded: %zu, families: %zu, factories: %zu\n", registry->plugins().size(),
                registry->families().size(), registry->factories().size());
    print_audit_figures(plugin_dir, *registry);
    return 0;
}
