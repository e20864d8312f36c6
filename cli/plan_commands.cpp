#include "plan_commands.hpp"

#include <algorithm>
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
#include "famspec/read_selection.hpp"
#include "famspec/resolver.hpp"
#include "famspec/snapshot.hpp"
#include "plan_input.hpp"
#include "selective_load.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

struct ResolvedPlan {
    Plan plan;
    PlanFamily family;
    DeclarationSummary summary;
    std::shared_ptr<const Registry> registry;
};

}  // namespace

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
bool family_known(const Context& context, const PlanFamily& family, bool read, const Registry& registry) {
    if (context.allow_partial || !read || !family.name || !names_family_explicitly(family.source)) return true;
    return registry.find_family(*family.name) != nullptr;
}

int refuse_unknown_family(const Context& context, const PlanFamily& family, const Registry& registry, std::ostream& out,
                          std::ostream& err) {
    return context.fail(
        kExitFailed,
        {"unknown_family",
         unknown_family_message(registry, *family.name) + " given by " + std::string(name_of(family.source)) +
             "; `famspec list` shows the loaded families (--allow-partial answers anyway)",
         {},
         {},
         {}},
        out, err);
}

std::string diagnostic_line(const Diagnostic& d) { return std::string(name_of(d.kind)) + ": " + d.message; }

namespace {

// A plan's answer from one registry: its family and, when that family may be used, the summary.
struct PlanAnswer {
    PlanFamily family;
    bool family_known = false;
    DeclarationSummary summary;
    std::shared_ptr<const Registry> registry;

    bool within_selection() const {
        return family_known && std::all_of(summary.entries.begin(), summary.entries.end(),
                                           [](const auto& entry) { return answered_within_selection(entry.status); });
    }
};

PlanAnswer answer_plan(const Context& context, const PlanRequest& request, const Plan& plan,
                       std::shared_ptr<const Registry> registry) {
    PlanAnswer answer{plan_family(plan, request.model_type, *registry), false, {}, std::move(registry)};
    answer.family_known = family_known(context, answer.family, plan_reads_family(plan), *answer.registry);
    if (!answer.family_known) return answer;
    const Resolver resolver(answer.registry);
    answer.summary = resolver.declaration_summary(request.model_type, plan, request.strict);
    return answer;
}

// Reads and checks the plan before any plugin is loaded, then resolves every target in it from the
// plugins the plan touches (every plugin under --strict or --with-snapshot, which answer for the whole
// set, and whenever the answer draws on more: selective_load.hpp). On failure, `failure` is the exit
// code: bad input, or a plugin set-up that did not fully load.
std::optional<ResolvedPlan> resolve_plan(const Context& context, const PlanRequest& request, std::ostream& out,
                                         std::ostream& err, int& failure) {
    std::optional<Plan> plan = read_checked_plan(context, request.path, request.strict, out, err, failure);
    if (!plan) return std::nullopt;
    std::optional<ReadSelection> selection;
    if (!request.strict && !request.with_snapshot) selection = read_selection(*plan, request.model_type);
    std::optional<PlanAnswer> answer;
    const auto answered = [&](const std::shared_ptr<const Registry>& registry) {
        // No answer is given; what is refused before any row is read is refused by a full load too.
        if (!registry->all_ok() && !context.allow_partial) return true;
        answer = answer_plan(context, request, *plan, registry);
        return answer->within_selection();
    };
    const auto registry = load_for_answer(context, selection, err, answered);
    failure = kExitFailed;
    if (!context.complete(*registry, out, err)) return std::nullopt;
    if (!answer || answer->registry != registry) answer = answer_plan(context, request, *plan, registry);
    if (!answer->family_known) {
        refuse_unknown_family(context, answer->family, *registry, out, err);
        return std::nullopt;
    }
    return ResolvedPlan{std::move(*plan), std::move(answer->family), std::move(answer->summary), registry};
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
