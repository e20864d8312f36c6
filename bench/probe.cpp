// famspec-bench-probe MODE ARGS...: one measurement in a fresh process, printed as `key=value` lines
// for famspec-bench to collect. Every famspec measurement has a floor mode that does the least work
// the same answer needs, in the same binary, so both start from the same process state.
//
//   load-raw FILE...            dlopen(RTLD_NOW|RTLD_LOCAL) + dlsym of each file by its path: the loading
//                               floor of any shared-library plugin framework (famspec maps nothing)
//   load-famspec DIR            famspec::load_plugins on DIR
//   load-stages DIR             the same, with the time from each announced stage to the next,
//                               summed over the candidates
//   read-elf FILE...            famspec's own read of each file (open, read_elf_info from the
//                               descriptor): what the load reads before it checks the block
//   library-info FILE...        Boost.DLL's library_info on each file: constructed, sections(),
//                               symbols(), and famspec_plugin_tables found among the exports
//   resolve DIR PLUGIN TARGET MODEL_TYPE MODULE_TYPE FAMILY_SPELLING
//                               cached replacement_spec_for and find_family with DIR and PLUGIN loaded
//   hashmap KEYS TARGET         an unordered_map lookup among KEYS keys: the lookup floor
//   plan-famspec FILE           famspec::parse_plan_file
//   plan-yaml FILE              YAML::LoadFile, nothing checked: the parsing floor
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <boost/dll/library_info.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "counting_new.hpp"
#include "famspec/elf_file.hpp"
#include "famspec/famspec.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/sdk/abi.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// Keeps a value the compiler would otherwise prove unused.
template <class T>
void keep(const T& value) {
    asm volatile("" : : "g"(&value) : "memory");
}

long status_kib(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::string(field).size()));
    }
    return -1;
}

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// The median over `batches` timed batches of `calls` calls, in ns per call. Batches are short (well
// under a scheduler time slice), so that the median is a batch that ran without being preempted.
template <class F>
double ns_per_call(int batches, int calls, F&& f) {
    std::vector<double> samples;
    for (int b = 0; b < batches; ++b) {
        const auto start = Clock::now();
        for (int i = 0; i < calls; ++i) f();
        samples.push_back(ns_since(start) / calls);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

// Each file is mapped by its path.
int load_raw(int argc, char** argv) {
    const long before = status_kib("VmHWM:");
    const long faults = minor_faults();
    const auto start = Clock::now();
    for (int i = 0; i < argc; ++i) {
        void* handle = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr || dlsym(handle, famspec::kEntrySymbol) == nullptr) {
            std::fprintf(stderr, "famspec-bench-probe: %s: %s\n", argv[i], dlerror());
            return 1;
        }
    }
    const double ns = ns_since(start);
    const long faulted = minor_faults() - faults;
    std::printf("ns=%.0f\nfaults=%ld\nplugins=%d\nhwm_before_kib=%ld\nhwm_after_kib=%ld\n", ns, faulted, argc, before,
                status_kib("VmHWM:"));
    return 0;
}

// Reads every file with `read_one`, which says whether it found the tables; the time, the
// allocations and the peak RSS of the whole, in the form load-raw prints them.
template <class ReadOne>
int read_each(int argc, char** argv, ReadOne&& read_one) {
    const long before = status_kib("VmHWM:");
    const std::size_t allocations = famspec::test::t_allocations;
    const auto start = Clock::now();
    for (int i = 0; i < argc; ++i) {
        if (!read_one(argv[i])) {
            std::fprintf(stderr, "famspec-bench-probe: %s: no %s\n", argv[i], famspec::kEntrySymbol);
            return 1;
        }
    }
    const double ns = ns_since(start);
    std::printf("ns=%.0f\nallocations=%zu\nplugins=%d\nhwm_before_kib=%ld\nhwm_after_kib=%ld\n", ns,
                famspec::test::t_allocations - allocations, argc, before, status_kib("VmHWM:"));
    return 0;
}

bool read_elf(const char* path) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const famspec::ElfInfo info = famspec::read_elf_info(fd);
    ::close(fd);
    keep(info);
    return info.is_elf && info.tables.has_value();
}

bool read_library_info(const char* path) {
    boost::dll::library_info info(path);
    const std::vector<std::string> sections = info.sections();
    const std::vector<std::string> symbols = info.symbols();
    keep(sections);
    return std::find(symbols.begin(), symbols.end(), famspec::kEntrySymbol) != symbols.end();
}

int load_famspec(const char* directory) {
    famspec::LoadOptions options;
    options.directories.emplace_back(directory);
    const long before = status_kib("VmHWM:");
    const long faults = minor_faults();
    const auto start = Clock::now();
    const auto registry = famspec::load_plugins(options);
    const double ns = ns_since(start);
    const long faulted = minor_faults() - faults;
    const long after = status_kib("VmHWM:");
    for (const auto& record : registry->plugins()) {
        if (!record.ok()) {
            std::fprintf(stderr, "famspec-bench-probe: %s\n", record.error->message.c_str());
            return 1;
        }
    }
    std::printf("ns=%.0f\nfaults=%ld\nplugins=%zu\nhwm_before_kib=%ld\nhwm_after_kib=%ld\n", ns, faulted,
                registry->plugins().size(), before, after);
    return 0;
}

// Where a load's time goes: each announced stage runs until the next announcement, so a stage's
// figure also holds what runs unannounced after it (the next candidate's trust check after
// "manifest"; the cross-plugin checks and the freeze after the last "register").
int load_stages(const char* directory) {
    famspec::LoadOptions options;
    options.directories.emplace_back(directory);
    std::map<std::string, double> spent;
    std::string current = "find";
    auto mark = Clock::now();
    const auto registry = famspec::load_plugins(options, [&](const std::string&, famspec::PluginStage stage) {
        spent[current] += ns_since(mark);
        current = famspec::name_of(stage);
        mark = Clock::now();
    });
    spent[current] += ns_since(mark);
    if (!registry->all_ok()) {
        std::fprintf(stderr, "famspec-bench-probe: a plugin of %s did not load\n", directory);
        return 1;
    }
    for (const auto& [stage, ns] : spent) std::printf("%s_ns=%.0f\n", stage.c_str(), ns);
    std::printf("plugins=%zu\n", registry->plugins().size());
    return 0;
}

int resolve(char** argv) {
    famspec::LoadOptions options;
    options.directories.emplace_back(argv[0]);
    options.files.emplace_back(argv[1]);
    famspec::ResolveRequest request;  // as a runtime keeps it for the target it asks about again
    request.target = argv[2];
    request.model_type = argv[3];
    request.module_type = argv[4];
    const std::string spelling = argv[5];
    const famspec::Resolver resolver(famspec::load_plugins(options));
    const auto warm = resolver.replacement_spec_for(request);
    if (!warm.resolved()) {
        std::fprintf(stderr, "famspec-bench-probe: %s not resolved: %s\n", argv[2], warm.reason().c_str());
        return 1;
    }
    constexpr int kHits = 1000;
    const std::size_t before = famspec::test::t_allocations;
    for (int i = 0; i < kHits; ++i) keep(resolver.replacement_spec_for(request));
    const double allocations = static_cast<double>(famspec::test::t_allocations - before) / kHits;
    const double hit_ns = ns_per_call(101, 1000, [&] { keep(resolver.replacement_spec_for(request)); });
    const famspec::Registry& registry = resolver.registry();
    if (registry.find_family(spelling) == nullptr) {
        std::fprintf(stderr, "famspec-bench-probe: no family %s\n", spelling.c_str());
        return 1;
    }
    const double family_ns = ns_per_call(101, 1000, [&] { keep(registry.find_family(spelling)); });
    std::printf("ns=%.1f\nallocations=%.2f\nfamily_ns=%.1f\nfamilies=%zu\n", hit_ns, allocations, family_ns,
                registry.families().size());
    return 0;
}

int hashmap(int keys, const std::string& target) {
    std::unordered_map<std::string, std::shared_ptr<const int>> map;
    for (int i = 0; i < keys; ++i) map.emplace(target + std::to_string(i), std::make_shared<const int>(i));
    map.emplace(target, std::make_shared<const int>(-1));
    const double ns = ns_per_call(101, 1000, [&] {
        const auto it = map.find(target);
        keep(it == map.end() ? nullptr : it->second);
    });
    std::printf("ns=%.1f\n", ns);
    return 0;
}

int plan_famspec(const char* file) {
    const auto start = Clock::now();
    const auto parsed = famspec::parse_plan_file(file);
    const double ns = ns_since(start);
    if (!parsed) {
        std::fprintf(stderr, "famspec-bench-probe: %s\n", parsed.error().first().to_string().c_str());
        return 1;
    }
    std::printf("ns=%.0f\nentries=%zu\n", ns, parsed->entries.size());
    return 0;
}

int plan_yaml(const char* file) {
    const auto start = Clock::now();
    const YAML::Node document = YAML::LoadFile(file);
    const double ns = ns_since(start);
    std::printf("ns=%.0f\nentries=%zu\n", ns, document["plan_overrides"].size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    try {
        if (mode == "load-raw") return load_raw(argc - 2, argv + 2);
        if (mode == "load-famspec" && argc == 3) return load_famspec(argv[2]);
        if (mode == "load-stages" && argc == 3) return load_stages(argv[2]);
        if (mode == "read-elf") return read_each(argc - 2, argv + 2, read_elf);
        if (mode == "library-info") return read_each(argc - 2, argv + 2, read_library_info);
        if (mode == "resolve" && argc == 8) return resolve(argv + 2);
        if (mode == "hashmap" && argc == 4) return hashmap(std::atoi(argv[2]), argv[3]);
        if (mode == "plan-famspec" && argc == 3) return plan_famspec(argv[2]);
        if (mode == "plan-yaml" && argc == 3) return plan_yaml(argv[2]);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "famspec-bench-probe: %s\n", error.what());
        return 1;
    }
    std::fprintf(stderr,
                 "usage: famspec-bench-probe load-raw|load-famspec|load-stages|read-elf|library-info|resolve|hashmap|"
                 "plan-famspec|plan-yaml ...\n");
    return 2;
}
