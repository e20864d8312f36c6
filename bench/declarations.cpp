// famspec-bench-declarations [--counts 1000,2000,4000] [--runs R] [--plugins DIR]
//
// Loading time against the number of declarations of one plugin: for each N, the generated plugin
// of one family with N replacement factories (bench/declarations_family.cpp.in, built as
// famspec_bench_declarations_<N>.so with its manifest embedded) is loaded R times. Printed per N:
// the best and median load, the time per declaration, and that time relative to the smallest N; a
// loader linear in the declarations keeps the ratio near 1 (a quadratic one doubles it with N).
// Nothing is asserted.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"
#include "number_list.hpp"

namespace fs = std::filesystem;

namespace {

fs::path plugin_file(const fs::path& dir, int count) {
    return dir / ("famspec_bench_declarations_" + std::to_string(count) + ".so");
}

// One load of the plugin of `count` factories, in ms; a negative value when it was not loaded.
double load_ms(const fs::path& plugin, int count) {
    famspec::LoadOptions options;
    options.files = {plugin};
    const auto start = std::chrono::steady_clock::now();
    const auto registry = famspec::load_plugins(options);
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    const bool loaded = registry->all_ok() && registry->factories().size() == static_cast<std::size_t>(count);
    if (!loaded && !registry->plugins().empty() && registry->plugins()[0].error) {
        std::fprintf(stderr, "%s\n", registry->plugins()[0].error->message.c_str());
    }
    return loaded ? elapsed.count() : -1.0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> counts{1000, 2000, 4000};
    int runs = 5;
    fs::path dir = FAMSPEC_BENCH_DECLARATIONS_DIR;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--counts") counts = famspec::bench::numbers(argv[i + 1]);
        if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
        if (flag == "--plugins") dir = argv[i + 1];
    }
    std::printf("%-14s %12s %12s %16s %10s\n", "declarations", "best", "median", "per declaration", "ratio");
    double first_per_declaration = 0;
    for (const int count : counts) {
        const fs::path plugin = plugin_file(dir, count);
        if (!fs::exists(plugin)) {
            std::printf("%-14d failed: no %s (cmake --build build --target bench_declarations_%d)\n", count,
                        plugin.c_str(), count);
            return 1;
        }
        std::vector<double> samples;
        for (int run = 0; run < runs; ++run) samples.push_back(load_ms(plugin, count));
        if (*std::min_element(samples.begin(), samples.end()) < 0) {
            std::printf("%-14d failed\n", count);
            return 1;
        }
        std::sort(samples.begin(), samples.end());
        const double per_declaration_us = samples[samples.size() / 2] * 1000.0 / count;
        if (first_per_declaration == 0) first_per_declaration = per_declaration_us;
        std::printf("%-14d %9.2f ms %9.2f ms %13.3f us %10.2f\n", count, samples.front(), samples[samples.size() / 2],
                    per_declaration_us, per_declaration_us / first_per_declaration);
    }
    return 0;
}
