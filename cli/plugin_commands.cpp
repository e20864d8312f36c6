#include "plugin_commands.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <cstring>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/resolver.hpp"

extern char** environ;

namespace famspec::cli {
namespace json = boost::json;
namespace {

std::vector<std::string> family_names(const PluginRecord& record) {
    std::vector<std::string> names;
    if (record.manifest) {
        for (const auto& family : record.manifest->families) names.push_back(family.model_type);
    }
    return names;
}

std::string abi_of(const PluginRecord& record) {
    if (!record.manifest) return "-";
    return std::to_string(record.manifest->abi_major) + "." + std::to_string(record.manifest->abi_minor);
}

json::object search_json(const SearchPath& search) {
    json::array directories;
    for (const auto& directory : search.directories) directories.emplace_back(directory.string());
    return {{"origin", std::string(origin_name(search.origin))}, {"directories", std::move(directories)}};
}

// Extra fields (crash signal) are merged in by verify.
json::object record_json(const PluginRecord& record, std::string_view status) {
    json::object out;
    out["name"] = record.manifest ? record.manifest->name : "";
    out["version"] = record.manifest ? record.manifest->version : "";
    out["description"] = record.manifest ? record.manifest->description : "";
    out["abi"] = abi_of(record);
    out["path"] = record.path;
    out["paths"] = string_array(record.paths);
    out["build_id"] = record.build_id;
    out["families"] = string_array(family_names(record));
    out["status"] = std::string(status);
    if (record.error) {
        out["stage"] = std::string(stage_name(record.error->stage));
        out["message"] = record.error->message;
        out["expected"] = record.error->expected;
        out["found"] = record.error->found;
    } else {
        out["stage"] = nullptr;
        out["message"] = "";
    }
    return out;
}

void print_search(std::ostream& out, const SearchPath& search) {
    std::vector<std::string> directories;
    for (const auto& d : search.directories) directories.push_back(d.string());
    out << "plugin search path (" << origin_name(search.origin) << "): " << join(directories, ":") << "\n";
}

void print_records(std::ostream& out, const std::vector<PluginRecord>& records,
                   const std::vector<std::string>& statuses) {
    std::vector<std::vector<std::string>> rows{{"NAME", "VERSION", "ABI", "STATUS", "FAMILIES", "PATH"}};
    for (std::size_t i = 0; i < records.size(); ++i) {
        const PluginRecord& r = records[i];
        std::string status = statuses[i];
        if (r.error) status += " (" + std::string(stage_name(r.error->stage)) + ")";
        rows.push_back({r.manifest ? r.manifest->name : "-", r.manifest ? r.manifest->version : "-", abi_of(r), status,
                        join(family_names(r), ","), join(r.paths, ", ")});
    }
    print_table(out, rows);
    for (const PluginRecord& r : records) {
        if (r.error) out << "  " << stage_name(r.error->stage) << ": " << r.error->message << "\n";
    }
}

}  // namespace

int list_plugins(const Context& context, std::ostream& out, std::ostream& err) {
    const SearchPath search = context.search_path();
    const std::vector<PluginRecord> records = inspect_plugins(context.load_options(err));
    const bool ok = std::all_of(records.begin(), records.end(), [](const auto& r) { return r.ok(); });
    if (context.json) {
        json::array plugins;
        for (const auto& record : records) plugins.push_back(record_json(record, record.ok() ? "ok" : "error"));
        print_json(out, json::object{{"search_path", search_json(search)}, {"plugins", std::move(plugins)}});
    } else {
        print_search(out, search);
        std::vector<std::string> statuses;
        for (const auto& r : records) statuses.emplace_back(r.ok() ? "ok" : "error");
        print_records(out, records, statuses);
    }
    return ok ? kExitOk : kExitFailed;
}

// ---- show ---------------------------------------------------------------------------------------

namespace {

std::string describe(const Parameter& parameter) {
    switch (parameter.default_value.kind()) {
        case Default::Kind::required:
            return parameter.name;
        case Default::Kind::literal:
            return parameter.name + "=" + to_python(parameter.default_value.literal_value());
        case Default::Kind::expression:
            return parameter.name + "=" + parameter.default_value.expression_source();
    }
    return parameter.name;
}

std::string describe(const Argument& argument) {
    switch (argument.binding) {
        case ArgumentBinding::parameter:
            return argument.name + "=<" + argument.value + ">";
        case ArgumentBinding::literal:
            return argument.name + "=" + argument.value;
        case ArgumentBinding::interface:
            return argument.name + "=" + argument.value + " (rendered)";
    }
    return argument.name;
}

std::string declaration_of(const ReplacementFactory& factory) {
    const Construction* c = factory.construction();
    if (c == nullptr) return "runtime-only: " + std::string(factory.runtime_only_reason());
    std::vector<std::string> arguments;
    if (c->mode == ConstructionMode::wrap_source)
        arguments.emplace_back(c->module_positional ? "module" : "module=module");
    for (const Argument& a : c->arguments) arguments.push_back(describe(a));
    const char* mode = c->mode == ConstructionMode::wrap_source ? "wrap_source" : "name";
    return c->component + "(" + join(arguments, ", ") + ") from " + c->import_module + " [" + mode + "]";
}

std::string fingerprint_text(const MoeFingerprint& fp) {
    return "(" + fp.router + ", " + fp.shared_experts + ", " + fp.expert_storage + ")";
}

}  // namespace

int show_family(const Context& context, const std::string& name, std::ostream& out, std::ostream& err) {
    const auto registry = context.load(err);
    const FamilyLookup lookup = registry->find_family(name);
    if (lookup.family == nullptr) {
        err << "famspec: unknown family '" << name << "' (tried " << join(lookup.spellings_tried, ", ")
            << "); `famspec list` shows the loaded families\n";
        return kExitFailed;
    }
    const RegisteredFamily& family = *lookup.family;
    const std::string model_type(family->model_type());
    std::vector<const Registered<ReplacementFactory>*> factories;
    for (const auto& f : registry->factories()) {
        if (f->family() == model_type) factories.push_back(&f);
    }
    std::sort(factories.begin(), factories.end(), [](auto* a, auto* b) { return (*a)->target() < (*b)->target(); });
    std::vector<std::string> used_components;
    for (const auto* f : factories) {
        if (const Construction* c = (*f)->construction()) {
            if (const auto* component = registry->find_component(c->import_module, c->component)) {
                used_components.push_back(std::string((*component)->defining_module()) + "." + c->component);
            } else {
                used_components.push_back(c->import_module + "." + c->component + " (not registered)");
            }
        }
    }
    std::sort(used_components.begin(), used_components.end());
    used_components.erase(std::unique(used_components.begin(), used_components.end()), used_components.end());

    std::vector<std::string> wrappers;
    for (const auto& w : registry->cp_wrappers()) {
        if (w->family() == model_type) wrappers.emplace_back(w->target());
    }
    std::sort(wrappers.begin(), wrappers.end());
    std::vector<const Registered<MoeArchetype>*> archetypes;
    for (const auto& a : registry->archetypes()) {
        if (a->family() == model_type) archetypes.push_back(&a);
    }
    const auto aliases = family->aliases();
    const auto directories = family->directory_aliases();
    const auto computes = family->compute_functions();

    if (context.json) {
        json::array factory_list;
        for (const auto* f : factories) {
            json::object entry{{"target", std::string((*f)->target())}, {"declares", declaration_of(**f)}};
            entry["runtime_only"] = (*f)->construction() == nullptr;
            factory_list.push_back(std::move(entry));
        }
        json::array archetype_list;
        for (const auto* a : archetypes) {
            const MoeFingerprint& fp = (*a)->fingerprint();
            json::array options;
            for (const auto& o : (*a)->options()) options.emplace_back(describe(o));
            archetype_list.push_back(json::object{
                {"fingerprint",
                 json::array{json::value(fp.router), json::value(fp.shared_experts), json::value(fp.expert_storage)}},
                {"kind", std::string((*a)->kind())},
                {"target_class", std::string((*a)->target_class())},
                {"router_kind", std::string((*a)->router_kind())},
                {"shared", std::string((*a)->shared())},
                {"strip_boundary_subpatterns", string_array((*a)->strip_boundary_subpatterns())},
                {"compute_factory", std::string((*a)->compute_factory())},
                {"options", std::move(options)}});
        }
        print_json(out, json::object{{"model_type", model_type},
                                     {"architecture", std::string(family->architecture())},
                                     {"aliases", string_array(aliases)},
                                     {"directory_aliases", string_array(directories)},
                                     {"spellings", string_array(family.spellings)},
                                     {"plugin", family.plugin},
                                     {"path", family.path},
                                     {"factories", std::move(factory_list)},
                                     {"archetypes", std::move(archetype_list)},
                                     {"cp_wrappers", string_array(wrappers)},
                                     {"compute_functions", string_array(computes)},
                                     {"components", string_array(used_components)}});
        return kExitOk;
    }
    out << "family " << model_type << "\n";
    out << "  architecture:      " << family->architecture() << "\n";
    out << "  plugin:            " << family.plugin << " (" << family.path << ")\n";
    out << "  spellings:         " << join(family.spellings, ", ") << "\n";
    if (!aliases.empty()) out << "  aliases:           " << join({aliases.begin(), aliases.end()}, ", ") << "\n";
    if (!directories.empty()) {
        out << "  directory aliases: " << join({directories.begin(), directories.end()}, ", ") << "\n";
    }
    out << "  factories:\n";
    if (factories.empty()) out << "    (none)\n";
    for (const auto* f : factories) out << "    " << (*f)->target() << "\n      -> " << declaration_of(**f) << "\n";
    out << "  archetypes:\n";
    if (archetypes.empty()) out << "    (none)\n";
    for (const auto* a : archetypes) {
        std::vector<std::string> options;
        for (const auto& o : (*a)->options()) options.push_back(describe(o));
        const auto strip = (*a)->strip_boundary_subpatterns();
        out << "    " << fingerprint_text((*a)->fingerprint()) << " -> " << (*a)->kind() << " " << (*a)->target_class()
            << " (router_kind " << (*a)->router_kind() << ", shared " << (*a)->shared() << ", strip ["
            << join({strip.begin(), strip.end()}, ", ") << "])\n      local_compute_fn " << (*a)->compute_factory()
            << (options.empty() ? "" : " (options " + join(options, ", ") + ")") << "\n";
    }
    out << "  cp wrappers:\n";
    if (wrappers.empty()) out << "    (none)\n";
    for (const auto& w : wrappers) out << "    " << w << "\n";
    if (!computes.empty()) {
        out << "  compute functions (not archetypes):\n";
        for (const auto& c : computes) out << "    " << c << "\n";
    }
    out << "  components:\n";
    if (used_components.empty()) out << "    (none)\n";
    for (const auto& c : used_components) out << "    " << c << "\n";
    return kExitOk;
}

// ---- verify -------------------------------------------------------------------------------------

namespace {

struct ProbeOutcome {
    std::optional<PluginError> error;
    bool crashed = false;
    bool timed_out = false;
    std::string signal;
    std::string stage = "open";
    std::string output;  // the tail of what the child wrote to stderr
};

constexpr std::size_t kOutputTail = 2048;

// The last non-empty line a crashing child printed, e.g. a sanitizer's summary.
std::string last_line(const std::string& output) {
    std::size_t end = output.find_last_not_of(" \n\r\t");
    if (end == std::string::npos) return {};
    const std::size_t begin = output.rfind('\n', end);
    return output.substr(begin == std::string::npos ? 0 : begin + 1,
                         end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::optional<PluginStage> stage_from(std::string_view name) {
    for (auto stage : {PluginStage::find, PluginStage::manifest, PluginStage::compatibility, PluginStage::open,
                       PluginStage::entry, PluginStage::handshake, PluginStage::register_, PluginStage::validate}) {
        if (stage_name(stage) == name) return stage;
    }
    return std::nullopt;
}

void apply_report_line(std::string_view line, ProbeOutcome& outcome) {
    if (line.starts_with("stage ")) {
        outcome.stage = std::string(line.substr(6));
        return;
    }
    if (!line.starts_with("result ")) return;
    boost::system::error_code ec;
    const json::value result = json::parse(line.substr(7), ec);
    if (ec || !result.is_object()) return;
    const auto& object = result.get_object();
    if (object.at("status").as_string() == "ok") return;
    PluginError error;
    error.path = std::string(object.at("path").as_string());
    error.stage = stage_from(object.at("stage").as_string()).value_or(PluginStage::open);
    error.message = std::string(object.at("message").as_string());
    error.expected = std::string(object.at("expected").as_string());
    error.found = std::string(object.at("found").as_string());
    outcome.error = std::move(error);
}

ProbeOutcome probe_in_child(const std::string& file, double timeout_seconds) {
    ProbeOutcome outcome;
    std::array<int, 2> report{};
    std::array<int, 2> output{};
    if (pipe2(report.data(), O_CLOEXEC) != 0 || pipe2(output.data(), O_CLOEXEC) != 0) {
        outcome.error = PluginError{
            file, PluginStage::open, "a child process", std::strerror(errno), "", file + ": cannot create a pipe"};
        return outcome;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output[1], 2);  // kept: a crash report is worth showing
    posix_spawn_file_actions_adddup2(&actions, report[1], 3);  // dup2 clears FD_CLOEXEC on fd 3
    const std::string self = executable_path();
    std::vector<std::string> args{self, "__probe", file};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(report[1]);
    close(output[1]);
    if (spawned != 0) {
        close(report[0]);
        close(output[0]);
        outcome.error = PluginError{file,
                                    PluginStage::open,
                                    "a child process",
                                    std::strerror(spawned),
                                    "",
                                    file + ": cannot start the probe process: " + std::strerror(spawned)};
        return outcome;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    std::string buffer;
    std::array<char, 4096> chunk{};
    std::array<pollfd, 2> fds{{{report[0], POLLIN, 0}, {output[0], POLLIN, 0}}};
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            outcome.timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        if (poll(fds.data(), fds.size(), static_cast<int>(left.count())) <= 0) continue;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = read(fds[i].fd, chunk.data(), chunk.size());
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                continue;
            }
            if (i == 1) {
                outcome.output.append(chunk.data(), static_cast<std::size_t>(n));
                if (outcome.output.size() > kOutputTail) outcome.output.erase(0, outcome.output.size() - kOutputTail);
                continue;
            }
            buffer.append(chunk.data(), static_cast<std::size_t>(n));
            for (std::size_t eol = buffer.find('\n'); eol != std::string::npos; eol = buffer.find('\n')) {
                apply_report_line(std::string_view(buffer).substr(0, eol), outcome);
                buffer.erase(0, eol + 1);
            }
        }
    }
    for (const pollfd& fd : fds) {
        if (fd.fd >= 0) close(fd.fd);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!outcome.timed_out && WIFSIGNALED(status)) {
        outcome.crashed = true;
        outcome.signal = signal_name(WTERMSIG(status));
    }
    return outcome;
}

}  // namespace

int probe_plugin(const std::string& file, int result_fd) {
    auto report = [result_fd](const std::string& line) {
        const std::string text = line + "\n";
        [[maybe_unused]] const auto written = write(result_fd, text.data(), text.size());
    };
    LoadOptions options;
    options.files.emplace_back(file);
    options.allow_insecure = true;  // the parent decided trust before it started this child
    options.on_stage = [&](const std::string&, PluginStage stage) {
        report("stage " + std::string(stage_name(stage)));
    };
    const auto registry = load_plugins(options);
    json::object result{{"path", file}, {"status", "ok"}};
    for (const PluginRecord& record : registry->plugins()) {
        if (record.ok()) continue;
        result = {{"path", record.error->path},
                  {"status", "error"},
                  {"stage", std::string(stage_name(record.error->stage))},
                  {"message", record.error->message},
                  {"expected", record.error->expected},
                  {"found", record.error->found}};
    }
    report("result " + json::serialize(result));
    return kExitOk;
}

int verify_plugins(const Context& context, double timeout_seconds, std::ostream& out, std::ostream& err) {
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
        if (outcome.crashed || outcome.timed_out) {
            const std::string what = outcome.crashed ? "crashed with " + outcome.signal : "timed out";
            const std::string said = last_line(outcome.output);
            record.error = PluginError{record.path,
                                       stage_from(outcome.stage).value_or(PluginStage::open),
                                       "loading to finish",
                                       what,
                                       outcome.output,
                                       record.path + ": " + what + " during " + outcome.stage +
                                           (said.empty() ? "" : "; its last output: " + said)};
            statuses[i] = outcome.crashed ? "crashed" : "timeout";
            extras[i]["signal"] = outcome.crashed ? json::value(outcome.signal) : json::value(nullptr);
            extras[i]["output"] = outcome.output;
        } else if (outcome.error) {
            record.error = outcome.error;
        }
    }
    mark_conflicts(records);
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records[i].error && statuses[i] == "ok") statuses[i] = "error";
    }
    const bool ok = std::all_of(records.begin(), records.end(), [](const auto& r) { return r.ok(); });
    if (context.json) {
        json::array plugins;
        for (std::size_t i = 0; i < records.size(); ++i) {
            json::object entry = record_json(records[i], statuses[i]);
            if (!entry.contains("signal")) entry["signal"] = nullptr;
            for (const auto& [key, value] : extras[i]) entry[key] = value;
            plugins.push_back(std::move(entry));
        }
        print_json(out, json::object{{"search_path", search_json(search)}, {"plugins", std::move(plugins)}});
    } else {
        print_search(out, search);
        print_records(out, records, statuses);
    }
    return ok ? kExitOk : kExitFailed;
}

}  // namespace famspec::cli
