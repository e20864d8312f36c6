// famspec verify: each plugin is loaded in a child process (`famspec __probe FILE`), so a plugin
// that crashes, hangs or exits cannot take famspec down or pass for a good one.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cstring>
#include <ostream>

#include "child_process.hpp"
#include "escape.hpp"
#include "exit_guard.hpp"
#include "famspec/names.hpp"
#include "famspec/plugin_inspection.hpp"
#include "plugin_commands.hpp"
#include "plugin_report.hpp"
#include "probe_report.hpp"
#include "signal_relay.hpp"
#include "supervisor.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

constexpr std::size_t kOutputTail = 2048;

struct ProbeOutcome {
    ProbeReport report;
    ChildResult child;
    std::string output;  // the tail of what the child wrote to stderr
};

// The last non-empty line a failing child printed, e.g. a sanitizer's summary.
std::string last_line(const std::string& output) {
    const std::size_t end = output.find_last_not_of(" \n\r\t");
    if (end == std::string::npos) return {};
    const std::size_t begin = output.rfind('\n', end);
    const std::size_t first = begin == std::string::npos ? 0 : begin + 1;
    return output.substr(first, end - first + 1);
}

ProbeOutcome probe_in_child(const std::string& file, double timeout_seconds) {
    ProbeOutcome outcome;
    ReportReader report(outcome.report);
    ChildOptions options;
    options.argv = {executable_path(), "__probe", file};
    options.timeout = std::chrono::duration<double>(timeout_seconds);
    options.relay_signals = true;                                  // an interrupted verify leaves no probe behind
    options.outputs.emplace_back(2, [&](std::string_view chunk) {  // kept: a crash report is worth showing
        outcome.output.append(chunk);
        if (outcome.output.size() > kOutputTail) outcome.output.erase(0, outcome.output.size() - kOutputTail);
    });
    options.outputs.emplace_back(3, [&](std::string_view chunk) { report.feed(chunk); });
    outcome.child = run_child(options);
    report.finish();
    return outcome;
}

struct ProbeVerdict {
    std::string status;  // ok, error, crashed, timeout, exited
    std::optional<PluginError> error;
    json::object extras;
};

// A child's word counts only with its result line *and* a zero exit status.
ProbeVerdict judge_probe(const std::string& path, const ProbeOutcome& outcome) {
    const ChildResult& child = outcome.child;
    const ProbeReport& report = outcome.report;
    // What the child printed is the plugin's as much as famspec's: shown escaped, byte by byte.
    const std::string output = escape_foreign_keep_lines(outcome.output);
    auto failure = [&](std::string status, std::string what) {
        const std::string said = last_line(output);
        ProbeVerdict verdict{std::move(status), PluginError{}, {}};
        PluginError& error = *verdict.error;
        error.path = path;
        error.stage = PluginStage::open;
        for (auto stage : {PluginStage::open, PluginStage::entry, PluginStage::handshake, PluginStage::register_,
                           PluginStage::validate}) {
            if (name_of(stage) == report.stage) error.stage = stage;
        }
        error.expected = "loading to finish";
        error.found = what;
        error.system_message = output;
        error.message =
            path + ": " + what + " during " + report.stage + (said.empty() ? "" : "; its last output: " + said);
        verdict.extras["signal"] = child.signal != 0 ? json::value(signal_name(child.signal)) : json::value(nullptr);
        verdict.extras["output"] = output;
        return verdict;
    };
    if (!child.spawn_error.empty()) return failure("error", child.spawn_error);
    if (child.timed_out) return failure("timeout", "timed out");
    if (child.signal != 0) return failure("crashed", "crashed with " + signal_name(child.signal));
    if (!report.malformed.empty())
        return failure("error", "its report to famspec was malformed (" + report.malformed + ")");
    if (child.exit_code == kProbeReportLost) return failure("error", "closed famspec's report descriptor (fd 3)");
    if (child.exit_code != 0) return failure("exited", "exited with status " + std::to_string(child.exit_code));
    if (!report.has_result) return failure("exited", "exited with status 0 before loading finished");
    if (report.error) {
        PluginError error = *report.error;  // read from the child's report: the plugin may have written it
        for (std::string* field : {&error.path, &error.message, &error.expected, &error.found})
            *field = escape_foreign(*field);
        return {"error", std::move(error), {}};
    }
    return {"ok", std::nullopt, {}};
}

}  // namespace

int probe_plugin(const std::string& file, int result_fd) {
    // The report descriptor as the parent gave it: plugin code that closes or replaces it is told
    // apart from one that exits (exit status kProbeReportLost), at the first report after it did.
    struct stat given {};
    const bool have_report = ::fstat(result_fd, &given) == 0;
    std::string last_stage = "open";
    auto report = [&](const std::string& text) {
        struct stat now {};
        const bool same =
            have_report && ::fstat(result_fd, &now) == 0 && now.st_dev == given.st_dev && now.st_ino == given.st_ino;
        if (same && ::write(result_fd, text.data(), text.size()) == static_cast<ssize_t>(text.size())) return;
        const std::string message = "famspec: error: " + file + " closed or replaced famspec's report descriptor (fd " +
                                    std::to_string(result_fd) + ") during " + last_stage + "\n";
        [[maybe_unused]] const auto written = ::write(2, message.data(), message.size());
        _exit(kProbeReportLost);
    };
    LoadOptions options;
    options.files.emplace_back(file);
    options.allow_insecure = true;  // the parent decided trust before it started this child
    const StageCallback on_stage = [&](const std::string& path, PluginStage stage) {
        ExitGuard::entering(path, stage);
        report("stage " + std::string(name_of(stage)) + "\n");
        last_stage = std::string(name_of(stage));
    };
    std::shared_ptr<const Registry> registry;
    {
        const ExitGuard guard;
        registry = load_plugins(options, on_stage, ComponentLinks::left_to_the_set);  // the file alone is probed
    }
    const PluginError* error = nullptr;
    for (const PluginRecord& record : registry->plugins()) {
        if (!record.ok()) error = &*record.error;
    }
    report(result_line(file, error));
    return kExitOk;
}

int verify_plugins(const Context& context, double timeout_seconds, bool long_list, std::ostream& out,
                   std::ostream& err) {
    const SearchPath search = context.search_path();
    // Duplicates are decided after probing, from what actually loads: a plugin refused at load time
    // claims nothing, exactly as in an in-process load.
    std::vector<PluginRecord> records = inspect_candidates(context.load_options(err));
    std::vector<json::object> extras(records.size());
    std::vector<std::string> statuses(records.size(), "ok");
    for (std::size_t i = 0; i < records.size(); ++i) {
        PluginRecord& record = records[i];
        if (record.error) continue;  // failed before any plugin code would run
        const ProbeOutcome outcome = probe_in_child(record.path, timeout_seconds);
        if (outcome.child.relayed_signal != 0) {
            end_with(interrupted(outcome.child.relayed_signal, "while verify probed plugin " + record.path),
                     context.json);
        }
        ProbeVerdict verdict = judge_probe(record.path, outcome);
        statuses[i] = verdict.status;
        record.error = std::move(verdict.error);
        extras[i] = std::move(verdict.extras);
    }
    mark_conflicts(records);
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records[i].error && statuses[i] == "ok") statuses[i] = "error";
    }
    const bool ok = std::all_of(records.begin(), records.end(), [](const auto& r) { return r.ok(); });
    context.note_plugins(err, records);
    // A plugin that loads but registers nothing is not an error, but it is almost always a mistake.
    for (std::size_t i = 0; i < records.size(); ++i) {
        const PluginRecord& record = records[i];
        if (!record.ok() || !record.manifest || !record.manifest->registers_nothing()) continue;
        const std::string warning = "plugin '" + record.manifest->name +
                                    "' registers nothing: its entry point adds no family, factory, archetype, CP "
                                    "wrapper or component";
        extras[i]["warnings"] = json::array{json::value(warning)};
        context.note(err, "famspec: warning: " + record.path + ": " + warning);
    }
    if (context.json) {
        json::array plugins;
        for (std::size_t i = 0; i < records.size(); ++i) {
            json::object entry = record_json(records[i], statuses[i]);
            entry["signal"] = nullptr;
            for (const auto& [key, value] : extras[i]) entry[key] = value;
            plugins.push_back(std::move(entry));
        }
        print_json(out, json::object{{"search_path", search_json(search)}, {"plugins", std::move(plugins)}});
    } else {
        print_search(context, err, search);
        print_records(out, records, statuses, long_list ? nullptr : &search);
    }
    return ok ? kExitOk : kExitFailed;
}

}  // namespace famspec::cli
