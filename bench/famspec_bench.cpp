// famspec-bench [--runs R] [--counts 1,10,100] [--plan-entries 100,1000,10000] [--no-pin]
//               [--generated DIR] [--plugins DIR] [--plan FILE] [--wheel FILE]
//
// famspec side by side with floors measured in the same run: loading N generated family plugins
// against a raw dlopen+dlsym of the same files, a cached resolve against a hash-map lookup, whole
// CLI processes against `python3 -c pass` (a C++ program's bare start-up beside them) and a full
// load, plan parsing against a bare yaml-cpp parse, peak RSS per plugin against the floor's; where a
// load goes, stage by stage; and famspec's own read of each plugin file beside Boost.DLL's
// library_info. Every sample is a fresh process; the measures are interleaved (the order rotates
// each run) and the process is pinned to one CPU when it can be. With --wheel (a famspec wheel,
// `python3 -m build --wheel`), the wheel's size against the libraries it ships for a runtime, and the
// first answer after `import torch` from the wheel installed by pip in a venv of Debian's python3.
// Figures and ratios are printed; nothing is asserted.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "number_list.hpp"
#include "process.hpp"
#include "workspace.hpp"

namespace fs = std::filesystem;
using famspec::bench::Report;

namespace {

struct Settings {
    int runs = 15;
    std::vector<int> counts{1, 10, 100};
    std::vector<int> plan_entries{100, 1000, 10000};
    bool pin = true;
    fs::path generated = FAMSPEC_BENCH_GENERATED_DIR;
    fs::path plugins = FAMSPEC_BENCH_PLUGIN_DIR;
    std::string plan = FAMSPEC_BENCH_PLAN;
    std::string wheel;
};

// One fresh-process measurement: its samples, one Report per successful run.
struct Probe {
    std::function<std::optional<Report>()> run;
    std::vector<Report> samples;
    int failures = 0;
};

Probe probe(std::vector<std::string> argv) {
    return {[argv] { return famspec::bench::run_probe(argv); }, {}, 0};
}

Probe whole_process(std::vector<std::string> argv) {
    return {[argv]() -> std::optional<Report> {
                if (auto ns = famspec::bench::time_process(argv)) return Report{{"ns", *ns}};
                return std::nullopt;
            },
            {},
            0};
}

// A figure of every sample of a probe: a key of its report, optionally turned into another number.
using Figure = std::function<double(const Report&)>;
Figure key(std::string name, double divisor = 1.0) {
    return [name, divisor](const Report& r) { return r.at(name) / divisor; };
}
Figure rss_per_plugin(double plugins) {
    return [plugins](const Report& r) { return (r.at("hwm_after_kib") - r.at("hwm_before_kib")) / plugins; };
}

struct Stats {
    double median = 0;
    double best = 0;
    bool ok = false;
};

Stats stats(const Probe& p, const Figure& figure) {
    std::vector<double> values;
    for (const Report& r : p.samples) values.push_back(figure(r));
    if (values.empty() || p.failures > 0) return {};
    std::sort(values.begin(), values.end());
    return {values[values.size() / 2], values.front(), true};
}

struct Row {
    std::string measure;
    std::string unit;  // "us", "ns", "ms", "kB", "" (a count)
    double scale;      // ns -> unit
    std::size_t ours, floor;
    Figure ours_figure, floor_figure;
    std::string goal;  // printed next to the ratio
    std::function<bool(double ratio, double ours, double floor)> met;
};

std::string value_text(const Stats& s, const Row& row) {
    if (!s.ok) return "failed";
    const double value = s.median * row.scale;
    char text[64];
    std::snprintf(text, sizeof text,
                  value >= 100  ? "%.0f %s"
                  : value >= 10 ? "%.1f %s"
                                : "%.2f %s",
                  value, row.unit.c_str());
    return text;
}

void print_row(const Row& row, const std::vector<Probe>& probes) {
    const Stats ours = stats(probes[row.ours], row.ours_figure);
    const bool has_floor = static_cast<bool>(row.floor_figure);
    const Stats floor = has_floor ? stats(probes[row.floor], row.floor_figure) : Stats{};
    std::string ratio = "-", best = "-", verdict;
    if (ours.ok && floor.ok && floor.median > 0 && floor.best > 0) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", ours.median / floor.median);
        ratio = text;
        std::snprintf(text, sizeof text, "%.2f", ours.best / floor.best);
        best = text;
    }
    if (!row.goal.empty() && ours.ok && (floor.ok || !has_floor)) {
        verdict = row.met(floor.ok ? ours.median / floor.median : 0, ours.median, floor.median) ? "met" : "not met";
    }
    std::printf("%-54s %12s %12s %8s %8s   %-22s %s\n", row.measure.c_str(), value_text(ours, row).c_str(),
                has_floor ? value_text(floor, row).c_str() : "", ratio.c_str(), best.c_str(), row.goal.c_str(),
                verdict.c_str());
}

// Where famspec's load goes, stage by stage, for the first plugin and per plugin of the most.
template <class Add>
void add_stage_rows(const std::vector<int>& counts, const famspec::bench::Workspace& workspace,
                    const std::string& probe_exe, std::vector<Row>& rows, Add& add) {
    if (counts.empty()) return;
    for (const int n : {counts.front(), counts.back()}) {
        const std::size_t stages = add(probe({probe_exe, "load-stages", workspace.plugin_dir(n).string()}));
        for (const char* stage : {"find", "manifest", "compatibility", "register"}) {
            rows.push_back({"  stage " + std::string(stage) + ", N=" + std::to_string(n) + ", per plugin",
                            "us",
                            1e-3,
                            stages,
                            stages,
                            key(std::string(stage) + "_ns", n),
                            {},
                            "",
                            {}});
        }
        if (counts.front() == counts.back()) break;
    }
}

// What reading a plugin file costs without loading it, famspec's reader against Boost.DLL's
// library_info (docs/performance.md, "Boost.DLL's library_info"), both against the raw dlopen floor.
template <class Add>
void add_reader_rows(const std::vector<int>& counts, const famspec::bench::Workspace& workspace,
                     const std::string& probe_exe, const std::map<int, std::size_t>& raw_floor, std::vector<Row>& rows,
                     Add& add) {
    if (counts.empty()) return;
    for (const int n : {counts.front(), counts.back()}) {
        std::vector<std::string> elf{probe_exe, "read-elf"}, dll{probe_exe, "library-info"};
        for (auto& file : workspace.plugin_files(n)) {
            elf.push_back(file);
            dll.push_back(file);
        }
        const std::size_t ours = add(probe(elf)), boost = add(probe(dll)), floor = raw_floor.at(n);
        const std::string at = ", N=" + std::to_string(n);
        rows.push_back({"  ELF read per plugin" + at + ", vs a raw dlopen",
                        "us",
                        1e-3,
                        ours,
                        floor,
                        key("ns", n),
                        key("ns", n),
                        "",
                        {}});
        rows.push_back({"  library_info per plugin" + at + ", vs a raw dlopen",
                        "us",
                        1e-3,
                        boost,
                        floor,
                        key("ns", n),
                        key("ns", n),
                        "",
                        {}});
        rows.push_back({"  library_info per plugin" + at + ", vs the ELF read",
                        "us",
                        1e-3,
                        boost,
                        ours,
                        key("ns", n),
                        key("ns", n),
                        "",
                        {}});
        rows.push_back({"  allocations per plugin" + at + ", library_info vs ELF",
                        "",
                        1.0,
                        boost,
                        ours,
                        key("allocations", n),
                        key("allocations", n),
                        "",
                        {}});
        if (n == counts.back()) {
            rows.push_back({"  peak RSS per plugin" + at + ", library_info vs ELF",
                            "kB",
                            1.0,
                            boost,
                            ours,
                            rss_per_plugin(n),
                            rss_per_plugin(n),
                            "",
                            {}});
        }
        if (counts.front() == counts.back()) break;
    }
}

auto at_most(double limit) {
    return [limit](double ratio, double, double) { return ratio <= limit; };
}

}  // namespace

int main(int argc, char** argv) {
    Settings settings;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--runs" && has_value)
            settings.runs = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--counts" && has_value)
            settings.counts = famspec::bench::numbers(argv[++i]);
        else if (arg == "--plan-entries" && has_value)
            settings.plan_entries = famspec::bench::numbers(argv[++i]);
        else if (arg == "--generated" && has_value)
            settings.generated = argv[++i];
        else if (arg == "--plugins" && has_value)
            settings.plugins = argv[++i];
        else if (arg == "--plan" && has_value)
            settings.plan = argv[++i];
        else if (arg == "--wheel" && has_value)
            settings.wheel = fs::absolute(argv[++i]).string();
        else if (arg == "--no-pin")
            settings.pin = false;
        else {
            std::fprintf(stderr,
                         "usage: famspec-bench [--runs R] [--counts 1,10,100] [--plan-entries 100,1000,10000] "
                         "[--no-pin] [--generated DIR] [--plugins DIR] [--plan FILE] [--wheel FILE]\n");
            return 2;
        }
    }
    const int cpu = settings.pin ? famspec::bench::pin_to_one_cpu() : -1;
    const famspec::bench::Workspace workspace(settings.generated, settings.counts, settings.plan_entries);
    const std::string probe_exe = FAMSPEC_BENCH_PROBE;
    const std::string cli = FAMSPEC_BENCH_CLI;
    const std::string plugins = settings.plugins.string();

    std::printf("famspec-bench: %s; %s build\n", famspec::bench::machine_description().c_str(),
                FAMSPEC_BENCH_BUILD_TYPE);
    std::printf("%d runs of each measure, each a fresh process, interleaved; %s\n", settings.runs,
                cpu >= 0 ? ("pinned to CPU " + std::to_string(cpu)).c_str() : "not pinned");
    std::printf(
        "figures are medians; \"x median\" is famspec's median over the floor's, \"x best\" the same for the "
        "fastest run\n");

    std::vector<Probe> probes;
    std::vector<Row> rows;
    auto add = [&](Probe p) {
        probes.push_back(std::move(p));
        return probes.size() - 1;
    };

    std::vector<int> counts;
    std::map<int, std::size_t> raw_floor;  // the probe of the raw dlopen floor for N plugins
    for (const int n : settings.counts) {
        if (n > 0 && static_cast<std::size_t>(n) <= workspace.available()) {
            counts.push_back(n);
        } else {
            std::printf(
                "note: %d generated plugins asked for, %zu built in %s (cmake --build build --target "
                "famspec-bench-plugins)\n",
                n, workspace.available(), settings.generated.c_str());
        }
    }
    for (const int n : counts) {
        // The floor: a raw dlopen(RTLD_NOW|RTLD_LOCAL) + dlsym of each file by its path, what every
        // shared-library plugin framework pays at least. famspec maps nothing: it opens, checks and reads.
        std::vector<std::string> by_path{probe_exe, "load-raw"};
        for (auto& file : workspace.plugin_files(n)) by_path.push_back(file);
        const std::size_t famspec = add(probe({probe_exe, "load-famspec", workspace.plugin_dir(n).string()}));
        const std::size_t floor = add(probe(by_path));
        raw_floor[n] = floor;
        const double per = n;
        rows.push_back({n == 1 ? "load, N=1 (the first plugin), vs one raw dlopen by path"
                               : "load per plugin, N=" + std::to_string(n) + ", vs a raw dlopen by path",
                        "us", 1e-3, famspec, floor, key("ns", per), key("ns", per),
                        n == 1 ? "<= 1.0x" : "<= 0.8x at N=100", at_most(n == 1 ? 1.0 : 0.8)});
        if (n == counts.back()) {
            rows.push_back({"peak RSS per plugin, N=" + std::to_string(n), "kB", 1.0, famspec, floor,
                            rss_per_plugin(per), rss_per_plugin(per), "<= floor",
                            [](double, double ours, double floor) { return ours <= floor; }});
        }
    }
    add_stage_rows(counts, workspace, probe_exe, rows, add);
    add_reader_rows(counts, workspace, probe_exe, raw_floor, rows, add);
    if (!counts.empty()) {
        const int n = counts.back();
        const std::string index = "000";
        const std::string target =
            "hyper_parallel.models.bench_" + index + ".adapter.replacements.replace_bench_" + index + "_rms_norm";
        const std::size_t resolve =
            add(probe({probe_exe, "resolve", workspace.plugin_dir(n).string(), plugins + "/famspec_components.so",
                       target, "bench_" + index, "transformers.models.bench.modeling_bench.BenchRMSNorm",
                       "Bench" + index + "ForCausalLM"}));
        const std::size_t map = add(probe({probe_exe, "hashmap", std::to_string(n), target}));
        const std::string loaded = " (" + std::to_string(n) + " loaded)";
        rows.push_back({"cached replacement_spec_for vs hash map" + loaded, "ns", 1.0, resolve, map, key("ns"),
                        key("ns"), "<= 150 ns", [](double, double ours, double) { return ours <= 150; }});
        rows.push_back({"allocations per cached hit",
                        "",
                        1.0,
                        resolve,
                        resolve,
                        key("allocations"),
                        {},
                        "0",
                        [](double, double ours, double) { return ours == 0; }});
        rows.push_back({"registry find_family vs hash map" + loaded, "ns", 1.0, resolve, map, key("family_ns"),
                        key("ns"), "at the floor", at_most(1.15)});
    }
    const std::size_t summary =
        add(whole_process({cli, "--plugin-path", plugins, "summary", "--digest", settings.plan}));
    const std::size_t python = add(whole_process({"/usr/bin/python3", "-c", "pass"}));
    const std::size_t list = add(whole_process({cli, "--plugin-path", plugins, "list"}));
    const std::size_t show = add(whole_process({cli, "--plugin-path", plugins, "show", "qwen3_moe"}));
    // What every command pays before it reads a plugin: the process, its dynamic linking, the parser.
    const std::size_t version = add(whole_process({cli, "--version"}));
    // Any C++ command's start-up: exec, the dynamic linker relocating libstdc++, iostreams' start-up.
    const std::size_t cxx_floor = add(whole_process({FAMSPEC_BENCH_CXX_FLOOR}));
    rows.push_back({"summary --digest process vs python3 -c pass", "ms", 1e-6, summary, python, key("ns"), key("ns"),
                    "<= 0.20x", at_most(0.2)});
    rows.push_back(
        {"list process vs python3 -c pass", "ms", 1e-6, list, python, key("ns"), key("ns"), "<= 0.12x", at_most(0.12)});
    rows.push_back({"  C++ floor (prints a line) vs python3 -c pass",
                    "ms",
                    1e-6,
                    cxx_floor,
                    python,
                    key("ns"),
                    key("ns"),
                    "",
                    {}});
    rows.push_back({"list process vs full load (show) process", "ms", 1e-6, list, show, key("ns"), key("ns"), "<= 0.5x",
                    at_most(0.5)});
    rows.push_back({"start-up alone (--version) process vs show process", "ms", 1e-6, version, show, key("ns"),
                    key("ns"), "", at_most(1e9)});
    if (const std::string python_dir = FAMSPEC_BENCH_PYTHON_DIR; !python_dir.empty() && fs::exists(python_dir)) {
        // The package finds the shipped plugins the way a runtime would, from the environment.
        setenv("PYTHONPATH", python_dir.c_str(), 1);
        setenv("FAMSPEC_PLUGIN_PATH", plugins.c_str(), 1);
        const std::string script = FAMSPEC_BENCH_PYTHON_PROBE;
        const std::size_t first = add(probe({"/usr/bin/python3", script, "import"}));
        const std::size_t cached = add(probe({"/usr/bin/python3", script, "cached"}));
        rows.push_back({"python: import famspec + first replacement_spec_for, cold interpreter",
                        "ms",
                        1e-6,
                        first,
                        first,
                        key("ns"),
                        {},
                        "",
                        {}});
        const std::size_t host = add(probe({"/usr/bin/python3", script, "torch"}));
        rows.push_back({"python: the same after import torch, vs import torch", "ms", 1e-6, host, host, key("ns"),
                        key("floor_ns"), "<= 10 ms, <= 1% of torch",
                        [](double ratio, double ours_ns, double) { return ours_ns <= 10e6 && ratio <= 0.01; }});
        if (!settings.wheel.empty()) {
            // The wheel as a runtime gets it: pip-installed in a venv that sees torch, with nothing
            // of the build tree in the environment, so the package finds its own plugins.
            const std::string venv = (fs::temp_directory_path() / "famspec-bench-wheel-venv").string();
            if (!famspec::bench::run_probe({"/usr/bin/python3", script, "install-wheel", settings.wheel, venv})) {
                std::fprintf(stderr, "famspec-bench: cannot install %s into a venv\n", settings.wheel.c_str());
                return 1;
            }
            const std::size_t size = add(probe({"/usr/bin/python3", script, "wheel-size", settings.wheel}));
            rows.push_back({"wheel size vs the libraries it ships (uncompressed)",
                            "MB",
                            1e-6,
                            size,
                            size,
                            key("bytes"),
                            key("floor_bytes"),
                            "",
                            {}});
            const std::size_t wheel_host = add(probe({"/usr/bin/env", "-u", "PYTHONPATH", "-u", "FAMSPEC_PLUGIN_PATH",
                                                      venv + "/bin/python", script, "torch"}));
            rows.push_back({"python, pip-installed wheel: after import torch, vs import torch", "ms", 1e-6, wheel_host,
                            wheel_host, key("ns"), key("floor_ns"), "<= 10 ms, <= 1% of torch",
                            [](double ratio, double ours_ns, double) { return ours_ns <= 10e6 && ratio <= 0.01; }});
        }
        rows.push_back({"python: cached replacement_spec_for vs dict lookup",
                        "ns",
                        1.0,
                        cached,
                        cached,
                        key("ns"),
                        key("floor_ns"),
                        "",
                        {}});
    }
#ifdef FAMSPEC_BENCH_AUDIT_ROOT
    // The source audit of every shipped family on the fixture runtime tree: `famspec audit` starts
    // python3, which loads the plugins and reads the tree with ast.
    const std::size_t audit =
        add(whole_process({cli, "--plugin-path", plugins, "audit", "--source-root", FAMSPEC_BENCH_AUDIT_ROOT}));
    rows.push_back({"audit, all shipped families, process vs python3 -c pass", "ms", 1e-6, audit, python, key("ns"),
                    key("ns"), "", at_most(1e9)});
#endif
    for (const int entries : settings.plan_entries) {
        const std::string file = workspace.plan(entries).string();
        const std::size_t ours = add(probe({probe_exe, "plan-famspec", file}));
        const std::size_t floor = add(probe({probe_exe, "plan-yaml", file}));
        rows.push_back({"plan parse, " + std::to_string(entries) + " entries, vs yaml-cpp", "ms", 1e-6, ours, floor,
                        key("ns"), key("ns"), entries >= 10000 ? "<= 1.3x" : "",
                        at_most(entries >= 10000 ? 1.3 : 1e9)});
    }

    for (int run = 0; run < settings.runs; ++run) {
        for (std::size_t k = 0; k < probes.size(); ++k) {
            Probe& p = probes[(k + static_cast<std::size_t>(run)) % probes.size()];
            if (auto report = p.run())
                p.samples.push_back(std::move(*report));
            else
                ++p.failures;
        }
    }

    std::printf("\n%-54s %12s %12s %8s %8s   %-22s %s\n", "measure", "famspec", "floor", "x median", "x best", "goal",
                "");
    for (const Row& row : rows) print_row(row, probes);
    int failures = 0;
    for (const Probe& p : probes) failures += p.failures;
    if (failures > 0) std::printf("\n%d probe runs failed (their messages are above)\n", failures);
    return failures > 0 ? 1 : 0;
}
