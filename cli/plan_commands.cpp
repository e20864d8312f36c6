#include "plan_commands.hpp"

#include <boost/json.hpp>
#include <functional>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/family_suggestions.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/plan_keys.hpp"
#include "famspec/plan_option.hpp"
#include "famspec/resolver.hpp"
#include "famspec/snapshot.hpp"
#include "plan_input.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

void print_explanation(std::ostream& err, const Explanation& e, ResolutionStatus status, const std::string& reason) {
    err << "explain: spellings tried: " << (e.spellings_tried.empty() ? "(none)" : join(e.spellings_tried, ", "))
        << "\n";
    err << "explain: family: " << (e.family.empty() ? "(none)" : e.family) << "\n";
    err << "explain: plugin: " << (e.plugin.empty() ? "(none)" : e.plugin) << "\n";
    err << "explain: channel: " << (e.channel.empty() ? "(none)" : e.channel) << "\n";
    err << "explain: cache: " << (e.cache_hit ? "hit" : "miss") << "\n";
    err << "explain: rule: " << (e.rule.empty() ? "(none)" : e.rule) << "\n";
    for (const DeclaredBy& d : e.declared_by) {
        err << "explain: declared: " << d.role << " " << d.name << " by plugin " << d.plugin << "\n";
    }
    err << "explain: outcome: " << name_of(status) << (reason.empty() ? "" : ": " + reason) << "\n";
}

}  // namespace

std::optional<Slot> slot_from(const std::string& name) { return from_name<Slot>(name); }

std::optional<Options> parse_options(const std::vector<std::string>& items, std::string& problem) {
    Options options;
    for (const std::string& item : items) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            problem = "--option expects k=v, got '" + item + "'";
            return std::nullopt;
        }
        auto option = parse_option(item);
        if (!option) {
            problem = "bad --option '" + item + "': " + option.error().message;
            return std::nullopt;
        }
        options.insert_or_assign(std::move(option->first), std::move(option->second));
    }
    return options;
}

namespace {

struct ResolvedPlan {
    Plan plan;
    PlanFamily family;
    DeclarationSummary summary;
    std::shared_ptr<const Registry> registry;
};

// Reads a plan and notes on stderr what in it famspec does not read; nullopt after reporting an error,
// with `failure` its exit code: bad input, or a misspelt slot key, which would drop a target unseen.
std::optional<Plan> read_checked_plan(const Context& context, const std::string& path, bool strict, std::ostream& out,
                                      std::ostream& err, int& failure) {
    PlanParse parsed = read_plan(path, strict);
    if (!parsed) {
        failure = fail_plan(context, parsed, out, err);
        return std::nullopt;
    }
    const PlanWarning* misspelt = nullptr;
    std::size_t misspelt_count = 0;
    for (const PlanWarning& warning : parsed->warnings) {
        // A near miss of a slot key (famspec/plan_keys.hpp): an error, shown under --quiet too.
        if (refuses_plan(warning)) {
            if (misspelt_count++ == 0) misspelt = &warning;
            err << "famspec: " << warning.file << ":" << warning.location.line << ":" << warning.location.column
                << ": error: " << warning.message << "\n";
        } else {
            context.note(err, "famspec: " + warning.to_string());
        }
    }
    if (misspelt != nullptr) {
        failure = context.fail(kExitFailed,
                               {"plan", parsed->file + ": " + plan_refusal_reason(misspelt_count), parsed->file,
                                static_cast<int>(misspelt->location.line), static_cast<int>(misspelt->location.column)},
                               out, err);
        return std::nullopt;
    }
    return std::move(parsed).value();
}

// A family given explicitly (--model-type, the plan's model_type or architecture) that no loaded
// plugin registers: every target would be "unknown family" and a digest would look valid, so it is
// an error with the nearest names, unless --allow-partial asks for the answer anyway. Targets that
// do not read the family (components named directly) answer as under any other family.
bool known_or_allowed(const Context& context, const PlanFamily& family, bool read, const Registry& registry,
                      std::ostream& out, std::ostream& err) {
    if (context.allow_partial || !read || !family.name || !names_family_explicitly(family.source)) return true;
    if (registry.find_family(*family.name) != nullptr) return true;
    context.fail(kExitFailed,
                 {"unknown_family",
                  unknown_family_message(registry, *family.name) + " given by " + std::string(name_of(family.source)) +
                      "; `famspec list` shows the loaded families (--allow-partial answers anyway)",
                  {},
                  {},
                  {}},
                 out, err);
    return false;
}

// Reads and checks the plan before any plugin is loaded, then resolves every target in it. On
// failure, `failure` is the exit code: bad input, or a plugin set-up that did not fully load.
std::optional<ResolvedPlan> resolve_plan(const Context& context, const PlanRequest& request, std::ostream& out,
                                         std::ostream& err, int& failure) {
    std::optional<Plan> plan = read_checked_plan(context, request.path, request.strict, out, err, failure);
    if (!plan) return std::nullopt;
    auto registry = context.load_complete(out, err);
    if (!registry) {
        failure = kExitFailed;
        return std::nullopt;
    }
    PlanFamily family = plan_family(*plan, request.model_type, *registry);
    if (!known_or_allowed(context, family, plan_reads_family(*plan), *registry, out, err)) {
        failure = kExitFailed;
        return std::nullopt;
    }
    const Resolver resolver(registry);
    DeclarationSummary summary = resolver.declaration_summary(request.model_type, *plan, request.strict);
    return ResolvedPlan{std::move(*plan), std::move(family), std::move(summary), std::move(registry)};
}

// The summary's canonical bytes; with the snapshot, they also record which plugin set made them.
std::string summary_bytes(const ResolvedPlan& resolved, bool with_snapshot) {
    if (!with_snapshot) return resolved.summary.canonical_json();
    json::object object = json::parse(resolved.summary.canonical_json()).as_object();
    object["snapshot_digest"] = snapshot_digest(snapshot(*resolved.registry));
    return canonical_json(object);
}

std::string describe(const PlanFamily& family) {
    if (!family.name) {
        return family.model_target_names_no_family ? "inferred from each target; model._target_ names no family"
                                                   : "inferred from each target";
    }
    return *family.name + " from " + std::string(name_of(family.source));
}

std::string diagnostic_line(const Diagnostic& d) { return std::string(name_of(d.kind)) + ": " + d.message; }

json::array diagnostics_json(const std::vector<Diagnostic>& diagnostics) {
    json::array out;
    for (const Diagnostic& d : diagnostics) out.push_back(diagnostic_json(d));
    return out;
}

std::string location_of(const Plan& plan, const SourceLocation& location) {
    return plan.file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
}

}  // namespace

namespace {

std::string family_source_line(const PlanFamily& family) {
    return family.name                           ? std::string(name_of(family.source))
           : family.model_target_names_no_family ? "target path (model._target_ names no family)"
                                                 : "target path";
}

// Prints an answer as resolve does and returns its exit code. Not covered is an answer (null, exit 1,
// the reason on stderr); a broken declaration is reported as an error.
template <class T>
int report(const Context& context, const ResolveFlags& request, const PlanFamily& family, const Resolution<T>& answer,
           std::ostream& out, std::ostream& err) {
    const Broken* broken = std::get_if<Broken>(&answer.state);
    if (!(context.json && broken != nullptr)) out << spec_json(answer) << "\n";
    if (request.explain) {
        err << "explain: family source: " << family_source_line(family) << "\n";
        print_explanation(err, *answer.explanation, answer.status(), answer.reason());
    }
    for (const Diagnostic& d : answer.diagnostics) context.note(err, "famspec: diagnostic: " + diagnostic_line(d));
    if (broken != nullptr)
        return context.fail(kExitFailed, {"error", "error: " + broken->reason, {}, {}, {}}, out, err);
    if (const NotCovered* not_covered = std::get_if<NotCovered>(&answer.state)) {
        err << "famspec: not covered: " << not_covered->reason << "\n";
        return kExitFailed;
    }
    // Resolved, or native: the runtime's to build, as its runtime_only diagnostic says.
    return kExitOk;
}

}  // namespace

int resolve_target(const Context& context, ResolveFlags request, std::ostream& out, std::ostream& err) {
    const std::optional<Slot> slot = slot_from(request.slot_name);
    if (!slot) {
        return context.fail(
            kExitUsage,
            {"usage",
             "--slot must be replace_module, local_compute_fn or inner_wrapper, got '" + request.slot_name + "'",
             {},
             {},
             {}},
            out, err);
    }
    std::string problem;
    std::optional<Options> options = parse_options(request.option_items, problem);
    if (!options) return context.fail(kExitUsage, {"usage", problem, {}, {}, {}}, out, err);
    request.slot = *slot;
    request.options = std::move(*options);
    PlanFamily family{request.model_type, request.model_type ? FamilySource::caller : FamilySource::per_target};
    std::optional<Plan> plan;
    if (request.plan) {
        int failure = kExitUsage;
        plan = read_checked_plan(context, *request.plan, request.strict, out, err, failure);
        if (!plan) return failure;
    }
    auto registry = context.load_complete(out, err);
    if (!registry) return kExitFailed;
    if (plan) {
        family = plan_family(*plan, request.model_type, *registry);
        request.model_type = family.name;
    }
    if (!known_or_allowed(context, family, target_reads_family(request.slot, request.target), *registry, out, err)) {
        return kExitFailed;
    }
    const Resolver resolver(std::move(registry));
    return resolve_request(resolver, request,
                           [&](const auto& answer) { return report(context, request, family, answer, out, err); });
}

namespace {

struct CheckCounts {
    std::size_t covered = 0;
    std::size_t native = 0;
    std::size_t allowed = 0;  // runtime-only under --strict --allow-runtime-only
    std::size_t gaps = 0;
    std::size_t diagnostics = 0;
};

json::object check_json(const PlanRequest& request, const ResolvedPlan& resolved, const CheckCounts& counts) {
    json::array entries;
    for (const SummaryEntry& entry : resolved.summary.entries) {
        entries.push_back(
            json::object{{"slot", std::string(name_of(entry.slot))},
                         {"target", entry.target},
                         {"module_type", entry.module_type ? json::value(*entry.module_type) : nullptr},
                         {"status", std::string(name_of(entry.status))},
                         {"gap", entry.gap ? json::value(std::string(name_of(*entry.gap))) : json::value(nullptr)},
                         {"reason", entry.reason},
                         {"diagnostics", diagnostics_json(entry.diagnostics)},
                         {"line", entry.location.line},
                         {"column", entry.location.column}});
    }
    json::array warnings;
    for (const PlanWarning& w : resolved.plan.warnings) {
        warnings.push_back(
            json::object{{"message", w.message},
                         {"suggestion", w.suggestion.empty() ? json::value(nullptr) : json::value(w.suggestion)},
                         {"line", w.location.line},
                         {"column", w.location.column}});
    }
    const PlanFamily& family = resolved.family;
    return json::object{
        {"plan", request.path},
        {"model_type", family.name ? json::value(*family.name) : nullptr},
        {"model_type_source", std::string(name_of(family.source))},
        {"model_type_note",
         family.model_target_names_no_family ? json::value("model._target_ names no family") : json::value(nullptr)},
        {"strict", request.strict},
        {"warnings", std::move(warnings)},
        {"entries", std::move(entries)},
        {"covered", counts.covered},
        {"native", counts.native},
        {"runtime_only_allowed", counts.allowed},
        {"diagnostics", counts.diagnostics},
        {"gaps", counts.gaps}};
}

void print_check_text(std::ostream& out, const PlanRequest& request, const ResolvedPlan& resolved,
                      const CheckCounts& counts, const std::function<bool(const SummaryEntry&)>& is_allowed) {
    for (const SummaryEntry& entry : resolved.summary.entries) {
        if (entry.status == ResolutionStatus::resolved && entry.diagnostics.empty()) continue;
        const char* verdict = entry.status == ResolutionStatus::resolved ? "covered"
                              : entry.status == ResolutionStatus::native ? "native"
                              : entry.status == ResolutionStatus::error  ? "error"
                              : is_allowed(entry)                        ? "runtime-only (allowed)"
                                                                         : "not covered";
        out << location_of(resolved.plan, entry.location) << ": " << name_of(entry.slot) << " " << entry.target << ": "
            << verdict;
        if (entry.status != ResolutionStatus::resolved && entry.status != ResolutionStatus::native) {
            out << ": " << entry.reason;
        }
        out << "\n";
        for (const Diagnostic& d : entry.diagnostics) out << "  " << diagnostic_line(d) << "\n";
    }
    out << resolved.plan.file << ": " << resolved.summary.entries.size() << " targets, " << counts.covered
        << " covered, " << counts.gaps << " not covered";
    if (counts.native > 0) out << ", " << counts.native << " native";
    if (request.allow_runtime_only) out << ", " << counts.allowed << " runtime-only";
    if (counts.diagnostics > 0) out << ", " << counts.diagnostics << " diagnostics";
    out << " (model_type " << describe(resolved.family) << ")\n";
}

}  // namespace

int check_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err) {
    int failure = kExitUsage;
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, request, out, err, failure);
    if (!resolved) return failure;
    const std::function<bool(const SummaryEntry&)> is_allowed = [&](const SummaryEntry& entry) {
        return request.allow_runtime_only && entry.gap == Gap::runtime_only;
    };
    CheckCounts counts;
    for (const SummaryEntry& entry : resolved->summary.entries) {
        counts.diagnostics += entry.diagnostics.size();
        if (entry.status == ResolutionStatus::resolved) {
            ++counts.covered;
        } else if (entry.status == ResolutionStatus::native) {
            ++counts.native;
        } else {
            ++(is_allowed(entry) ? counts.allowed : counts.gaps);
        }
    }
    if (context.json) {
        print_json(out, check_json(request, *resolved, counts));
    } else {
        print_check_text(out, request, *resolved, counts, is_allowed);
    }
    return counts.gaps == 0 ? kExitOk : kExitFailed;
}

int summarize_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err) {
    int failure = kExitUsage;
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, request, out, err, failure);
    if (!resolved) return failure;
    const Plan& plan = resolved->plan;
    const DeclarationSummary& summary = resolved->summary;
    std::optional<CliError> first_error;
    for (const SummaryEntry& entry : summary.entries) {
        if (entry.status == ResolutionStatus::error) {
            err << "famspec: " << location_of(plan, entry.location) << ": " << entry.target
                << ": error: " << entry.reason << "\n";
            if (!first_error) {
                first_error = CliError{
                    "error", location_of(plan, entry.location) + ": " + entry.target + ": error: " + entry.reason,
                    plan.file, static_cast<int>(entry.location.line), static_cast<int>(entry.location.column)};
            }
        }
    }
    // A summary with a broken declaration in it would hide the failure behind a plausible digest.
    if (first_error) {
        if (context.json) print_json(out, json::object{{"error", error_json(*first_error)}});
        return kExitFailed;
    }
    const std::string bytes = summary_bytes(*resolved, request.with_snapshot);
    if (request.digest_only && context.json)
        print_json(out, json::object{{"digest", sha256_digest(bytes)}});
    else
        out << (request.digest_only ? sha256_digest(bytes) : bytes) << "\n";
    return kExitOk;
}

}  // namespace famspec::cli
