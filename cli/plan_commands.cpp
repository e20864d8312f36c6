#include "plan_commands.hpp"

#include <boost/json.hpp>
#include <ostream>

#include "famspec/resolver.hpp"
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
    err << "explain: outcome: " << status_name(status) << (reason.empty() ? "" : ": " + reason) << "\n";
}

}  // namespace

std::optional<Slot> slot_from(const std::string& name) {
    for (const Slot slot : {Slot::replace_module, Slot::local_compute_fn, Slot::inner_wrapper}) {
        if (slot_name(slot) == name) return slot;
    }
    return std::nullopt;
}

std::optional<Options> parse_options(const std::vector<std::string>& items, std::string& problem) {
    std::string yaml = "plan_overrides:\n- match: x\n  local_compute_fn:\n    _target_: x\n";
    for (const std::string& item : items) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            problem = "--option expects k=v, got '" + item + "'";
            return std::nullopt;
        }
        yaml += "    " + item.substr(0, eq) + ": " + item.substr(eq + 1) + "\n";
    }
    const PlanParse parsed = parse_plan_text(yaml, "--option");
    if (!parsed.plan) {
        problem = "bad --option: " + parsed.error->message;
        return std::nullopt;
    }
    return parsed.plan->entries.front().local_compute_fn->options;
}

namespace {

struct ResolvedPlan {
    Plan plan;
    DeclarationSummary summary;
};

// Reads and checks the plan before any plugin is loaded, then resolves every target in it.
std::optional<ResolvedPlan> resolve_plan(const Context& context, const std::string& path,
                                         const std::optional<std::string>& model_type, std::ostream& out,
                                         std::ostream& err) {
    PlanParse parsed = read_plan(path);
    if (!parsed.plan) {
        context.fail(kExitUsage, plan_error(*parsed.error), out, err);
        return std::nullopt;
    }
    const Resolver resolver(context.load(err));
    DeclarationSummary summary = resolver.declaration_summary(model_type, *parsed.plan);
    return ResolvedPlan{std::move(*parsed.plan), std::move(summary)};
}

std::string location_of(const Plan& plan, const SourceLocation& location) {
    return plan.file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
}

}  // namespace

int resolve_target(const Context& context, const ResolveRequest& request, std::ostream& out, std::ostream& err) {
    const std::optional<Slot> slot = slot_from(request.slot);
    if (!slot) {
        return context.fail(
            kExitUsage,
            {"usage",
             "--slot must be replace_module, local_compute_fn or inner_wrapper, got '" + request.slot + "'",
             {},
             {},
             {}},
            out, err);
    }
    std::string problem;
    const std::optional<Options> options = parse_options(request.options, problem);
    if (!options) return context.fail(kExitUsage, {"usage", problem, {}, {}, {}}, out, err);
    const Resolver resolver(context.load(err));
    const ResolveAnswer answer = resolve_request(resolver, request, *slot, *options);
    // Not covered is an answer (null, exit 1, the reason on stderr); an error is reported as one.
    const bool error = answer.status == ResolutionStatus::error;
    if (!(context.json && error)) out << answer.spec << "\n";
    if (request.explain) print_explanation(err, answer.explanation, answer.status, answer.reason);
    if (answer.status == ResolutionStatus::resolved) return kExitOk;
    if (error) return context.fail(kExitFailed, {"error", "error: " + answer.reason, {}, {}, {}}, out, err);
    err << "famspec: not covered: " << answer.reason << "\n";
    return kExitFailed;
}

ResolveAnswer resolve_request(const Resolver& resolver, const ResolveRequest& request, Slot slot,
                              const Options& options) {
    ResolveAnswer answer;
    auto take = [&answer](const auto& r) {
        answer.status = r.status;
        answer.reason = r.reason;
        answer.gap = r.gap;
        if (r.explanation) answer.explanation = *r.explanation;
        if (r.resolved()) answer.spec = to_canonical_json(*r.value);
    };
    if (slot == Slot::replace_module)
        take(resolver.replacement_spec_for(request.target, request.model_type, request.module_type, options));
    else
        take(resolver.strategy_spec_for(request.target, request.model_type, slot, options));
    return answer;
}

int check_plan(const Context& context, const std::string& path, const std::optional<std::string>& model_type,
               bool allow_runtime_only, std::ostream& out, std::ostream& err) {
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, path, model_type, out, err);
    if (!resolved) return kExitUsage;
    const Plan& plan = resolved->plan;
    const DeclarationSummary& summary = resolved->summary;
    std::size_t gaps = 0;
    std::size_t allowed = 0;
    auto is_allowed = [&](const SummaryEntry& entry) { return allow_runtime_only && entry.gap == Gap::runtime_only; };
    json::array entries;
    for (const SummaryEntry& entry : summary.entries) {
        if (entry.status != ResolutionStatus::resolved) ++(is_allowed(entry) ? allowed : gaps);
        entries.push_back(json::object{
            {"slot", std::string(slot_name(entry.slot))},
            {"target", entry.target},
            {"module_type", entry.module_type ? json::value(*entry.module_type) : nullptr},
            {"status", status_name(entry.status)},
            {"gap", entry.gap == Gap::none ? json::value(nullptr) : json::value(std::string(gap_name(entry.gap)))},
            {"reason", entry.reason},
            {"line", entry.location.line},
            {"column", entry.location.column}});
    }
    const std::optional<std::string> family = effective_model_type(plan, model_type);
    const std::size_t covered = summary.entries.size() - gaps - allowed;
    if (context.json) {
        print_json(out, json::object{{"plan", path},
                                     {"model_type", family ? json::value(*family) : nullptr},
                                     {"entries", std::move(entries)},
                                     {"covered", covered},
                                     {"runtime_only_allowed", allowed},
                                     {"gaps", gaps}});
    } else {
        for (const SummaryEntry& entry : summary.entries) {
            if (entry.status == ResolutionStatus::resolved) continue;
            const char* verdict = entry.status == ResolutionStatus::error ? "error: "
                                  : is_allowed(entry)                     ? "runtime-only (allowed): "
                                                                          : "not covered: ";
            out << location_of(plan, entry.location) << ": " << slot_name(entry.slot) << " " << entry.target << ": "
                << verdict << entry.reason << "\n";
        }
        out << plan.file << ": " << summary.entries.size() << " targets, " << covered << " covered, " << gaps
            << " not covered";
        if (allow_runtime_only) out << ", " << allowed << " runtime-only";
        out << " (model_type " << family.value_or("inferred from each target") << ")\n";
    }
    return gaps == 0 ? kExitOk : kExitFailed;
}

int summarize_plan(const Context& context, const std::string& path, const std::optional<std::string>& model_type,
                   bool digest_only, std::ostream& out, std::ostream& err) {
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, path, model_type, out, err);
    if (!resolved) return kExitUsage;
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
    if (digest_only && context.json)
        print_json(out, json::object{{"digest", summary.digest()}});
    else if (digest_only)
        out << summary.digest() << "\n";
    else
        out << summary.canonical_json() << "\n";
    return kExitOk;
}

}  // namespace famspec::cli
