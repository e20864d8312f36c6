#include "plan_commands.hpp"

#include <boost/json.hpp>
#include <ostream>

#include "famspec/resolver.hpp"

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

std::optional<Slot> slot_from(const std::string& name) {
    for (const Slot slot : {Slot::replace_module, Slot::local_compute_fn, Slot::inner_wrapper}) {
        if (slot_name(slot) == name) return slot;
    }
    return std::nullopt;
}

// --option k=v: the value is read as a YAML scalar, exactly as it would be in a plan.
std::optional<Options> parse_options(const std::vector<std::string>& items, std::ostream& err) {
    std::string yaml = "plan_overrides:\n- match: x\n  local_compute_fn:\n    _target_: x\n";
    for (const std::string& item : items) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            err << "famspec: --option expects k=v, got '" << item << "'\n";
            return std::nullopt;
        }
        yaml += "    " + item.substr(0, eq) + ": " + item.substr(eq + 1) + "\n";
    }
    const PlanParse parsed = parse_plan_text(yaml, "--option");
    if (!parsed.plan) {
        err << "famspec: bad --option: " << parsed.error->message << "\n";
        return std::nullopt;
    }
    return parsed.plan->entries.front().local_compute_fn->options;
}

struct ResolvedPlan {
    Plan plan;
    DeclarationSummary summary;
};

// Reads and checks the plan before any plugin is loaded, then resolves every target in it.
// On failure, `failure` is the exit code: bad input, or a plugin set-up that did not fully load.
std::optional<ResolvedPlan> resolve_plan(const Context& context, const std::string& path,
                                         const std::optional<std::string>& model_type, std::ostream& err,
                                         int& failure) {
    PlanParse parsed = parse_plan_file(path);
    if (!parsed.plan) {
        err << "famspec: " << parsed.error->to_string() << "\n";
        failure = kExitUsage;
        return std::nullopt;
    }
    auto registry = context.load_complete(err);
    if (!registry) {
        failure = kExitFailed;
        return std::nullopt;
    }
    const Resolver resolver(std::move(registry));
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
        err << "famspec: --slot must be replace_module, local_compute_fn or inner_wrapper, got '" << request.slot
            << "'\n";
        return kExitUsage;
    }
    const std::optional<Options> options = parse_options(request.options, err);
    if (!options) return kExitUsage;
    auto registry = context.load_complete(err);
    if (!registry) return kExitFailed;
    const Resolver resolver(std::move(registry));
    ResolutionStatus status = ResolutionStatus::not_covered;
    std::string reason;
    Explanation explanation;
    std::string text = "null";
    if (*slot == Slot::replace_module) {
        const auto r = resolver.replacement_spec_for(request.target, request.model_type, request.module_type, *options);
        status = r.status;
        reason = r.reason;
        explanation = r.explanation;
        if (r.resolved()) text = to_canonical_json(*r.value);
    } else {
        const auto r = resolver.strategy_spec_for(request.target, request.model_type, *slot, *options);
        status = r.status;
        reason = r.reason;
        explanation = r.explanation;
        if (r.resolved()) text = to_canonical_json(*r.value);
    }
    out << text << "\n";
    if (request.explain) print_explanation(err, explanation, status, reason);
    if (status == ResolutionStatus::resolved) return kExitOk;
    err << "famspec: " << (status == ResolutionStatus::error ? "error: " : "not covered: ") << reason << "\n";
    return kExitFailed;
}

int check_plan(const Context& context, const std::string& path, const std::optional<std::string>& model_type,
               bool allow_runtime_only, std::ostream& out, std::ostream& err) {
    int failure = kExitUsage;
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, path, model_type, err, failure);
    if (!resolved) return failure;
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
        out << path << ": " << summary.entries.size() << " targets, " << covered << " covered, " << gaps
            << " not covered";
        if (allow_runtime_only) out << ", " << allowed << " runtime-only";
        out << " (model_type " << family.value_or("inferred from each target") << ")\n";
    }
    return gaps == 0 ? kExitOk : kExitFailed;
}

int summarize_plan(const Context& context, const std::string& path, const std::optional<std::string>& model_type,
                   bool digest_only, std::ostream& out, std::ostream& err) {
    int failure = kExitUsage;
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, path, model_type, err, failure);
    if (!resolved) return failure;
    const Plan& plan = resolved->plan;
    const DeclarationSummary& summary = resolved->summary;
    bool failed = false;
    for (const SummaryEntry& entry : summary.entries) {
        if (entry.status == ResolutionStatus::error) {
            err << "famspec: " << location_of(plan, entry.location) << ": " << entry.target
                << ": error: " << entry.reason << "\n";
            failed = true;
        }
    }
    // A summary with a broken declaration in it would hide the failure behind a plausible digest.
    if (failed) return kExitFailed;
    if (digest_only)
        out << summary.digest() << "\n";
    else
        out << summary.canonical_json() << "\n";
    return kExitOk;
}

}  // namespace famspec::cli
