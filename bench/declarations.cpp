// famspec-bench-declarations [--counts 1000,2000,4000,8000,12000] [--runs R]
//
// Loading time against the number of declarations of one plugin: the many_declarations test fixture
// registers N replacement factories (FAMSPEC_FIXTURE_DECLARATIONS), gets a manifest generated for N
// and embedded (objcopy) into a copy of its own, and is loaded R times. Printed per N: the best and
// median load, the time per declaration, and that time relative to the smallest N; a loader linear in
// the declarations keeps the ratio near 1 (a quadratic one doubles it with N). Nothing is asserted.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "number_list.hpp"

namespace fs = std::filesystem;

namespace {

// A copy of the fixture carrying the manifest of its registration with `count` factories.
bool prepare(const fs::path& dir, int count) {
    setenv("FAMSPEC_FIXTURE_DECLARATIONS", std::to_string(count).c_str(), 1);
    const auto generated = famspec::generate_manifest(FAMSPEC_BENCH_FIXTURE);
    if (!generated.manifest) return false;
    const fs::path manifest = dir / "manifest.json";
    std::ofstream(manifest, std::ios::binary) << famspec::to_json(*generated.manifest);
    const fs::path plugin = dir / "famspec_many_declarations.so";
    fs::copy_file(FAMSPEC_BENCH_FIXTURE, plugin, fs::copy_options::overwrite_existing);
    const std::string command =
        std::string(FAMSPEC_BENCH_OBJCOPY) +
        " --remove-section .famspec_manifest --add-section .famspec_manifest=" + manifest.string() +
        " --set-section-flags .famspec_manifest=readonly,contents " + plugin.string();
    return std::system(command.c_str()) == 0;
}

// One load of the prepared copy, in ms; a negative value when it was not loaded.
double load_ms(const fs::path& dir, int count) {
    famspec::LoadOptions options;
    options.files = {dir / "famspec_many_declarations.so"};
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
    std::vector<int> counts{1000, 2000, 4000, 8000, 12000};
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--counts") counts = famspec::bench::numbers(argv[i + 1]);
        if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    }
    std::printf("%-14s %12s %12s %16s %10s\n", "declarations", "best", "median", "per declaration", "ratio");
    double first_per_declaration = 0;
    for (const int count : counts) {
        const fs::path dir = fs::temp_directory_path() / ("famspec-bench-declarations-" + std::to_string(count));
        fs::create_directories(dir);
        fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec);
        std::vector<double> samples;
        const bool prepared = prepare(dir, count);
        for (int run = 0; prepared && run < runs; ++run) samples.push_back(load_ms(dir, count));
        fs::remove_all(dir);
        if (!prepared || samples.empty() || *std::min_element(samples.begin(), samples.end()) < 0) {
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
