#include "plan_commands.hpp"

#include <boost/json.hpp>
#include <functional>
#include <ostream>

#include "famspec/names.hpp"
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
    err << "explain: outcome: " << name_of(status) << (reason.empty() ? "" : ": " + reason) << "\n";
}

// --option k=v, each read as a YAML scalar exactly as it would be in a plan.
std::optional<Options> parse_options(const std::vector<std::string>& items, std::ostream& err) {
    Options options;
    for (const std::string& item : items) {
        auto option = parse_option(item);
        if (!option) {
            err << "famspec: bad --option '" << item << "': " << option.error().message << "\n";
            return std::nullopt;
        }
        options.insert_or_assign(std::move(option->first), std::move(option->second));
    }
    return options;
}

std::string diagnostic_line(const Diagnostic& d) { return std::string(name_of(d.kind)) + ": " + d.message; }

json::array diagnostics_json(const std::vector<Diagnostic>& diagnostics) {
    json::array out;
    for (const Diagnostic& d : diagnostics) {
        out.push_back(
            json::object{{"kind", std::string(name_of(d.kind))},
                         {"message", d.message},
                         {"suggestion", d.suggestion.empty() ? json::value(nullptr) : json::value(d.suggestion)}});
    }
    return out;
}

// Reads and checks a plan, and says on stderr what in it famspec does not read.
std::optional<Plan> read_plan(const std::string& path, bool strict, std::ostream& err) {
    PlanParse parsed = parse_plan_file(path, {}, strict);
    if (!parsed.plan) {
        err << "famspec: " << parsed.error->to_string() << "\n";
        return std::nullopt;
    }
    for (const PlanWarning& warning : parsed.plan->warnings) err << "famspec: " << warning.to_string() << "\n";
    return std::move(parsed.plan);
}

struct ResolvedPlan {
    Plan plan;
    PlanFamily family;
    DeclarationSummary summary;
};

// Reads and checks the plan before any plugin is loaded, then resolves every target in it.
std::optional<ResolvedPlan> resolve_plan(const Context& context, const PlanRequest& request, std::ostream& err) {
    std::optional<Plan> plan = read_plan(request.path, request.strict, err);
    if (!plan) return std::nullopt;
    const Resolver resolver(context.load(err));
    PlanFamily family = plan_family(*plan, request.model_type);
    DeclarationSummary summary = resolver.declaration_summary(request.model_type, *plan, request.strict);
    return ResolvedPlan{std::move(*plan), std::move(family), std::move(summary)};
}

std::string describe(const PlanFamily& family) {
    if (!family.name) return "inferred from each target";
    return *family.name + " from " + std::string(family_source_name(family.source));
}

std::string location_of(const Plan& plan, const SourceLocation& location) {
    return plan.file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column);
}

}  // namespace

int resolve_target(const Context& context, const ResolveRequest& request, std::ostream& out, std::ostream& err) {
    const std::optional<Slot> slot = from_name<Slot>(request.slot);
    if (!slot) {
        err << "famspec: --slot must be replace_module, local_compute_fn or inner_wrapper, got '" << request.slot
            << "'\n";
        return kExitUsage;
    }
    std::optional<Options> options = parse_options(request.options, err);
    if (!options) return kExitUsage;
    PlanFamily family{request.model_type, request.model_type ? FamilySource::caller : FamilySource::per_target};
    if (request.plan) {
        const std::optional<Plan> plan = read_plan(*request.plan, request.strict, err);
        if (!plan) return kExitUsage;
        family = plan_family(*plan, request.model_type);
    }
    const Resolver resolver(context.load(err));
    const famspec::ResolveRequest query{.target = request.target,
                                        .model_type = family.name,
                                        .slot = *slot,
                                        .module_type = request.module_type,
                                        .options = std::move(*options),
                                        .strict = request.strict};
    auto print = [&](const auto& r) {
        out << (r.resolved() ? to_canonical_json(*r.value) : "null") << "\n";
        if (request.explain) {
            err << "explain: family source: " << (family.name ? name_of(family.source) : "target path") << "\n";
            print_explanation(err, *r.explanation, r.status, r.reason);
        }
        for (const Diagnostic& d : r.diagnostics) err << "famspec: diagnostic: " << diagnostic_line(d) << "\n";
        if (r.resolved()) return kExitOk;
        if (r.status == ResolutionStatus::native) return kExitOk;  // its runtime_only diagnostic says why
        err << "famspec: " << (r.status == ResolutionStatus::error ? "error: " : "not covered: ") << r.reason << "\n";
        return kExitFailed;
    };
    if (*slot == Slot::replace_module) return print(resolver.replacement_spec_for(query));
    return print(resolver.strategy_spec_for(query));
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
        entries.push_back(json::object{
            {"slot", std::string(name_of(entry.slot))},
            {"target", entry.target},
            {"module_type", entry.module_type ? json::value(*entry.module_type) : nullptr},
            {"status", std::string(name_of(entry.status))},
            {"gap", entry.gap == Gap::none ? json::value(nullptr) : json::value(std::string(name_of(entry.gap)))},
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
    return json::object{{"plan", request.path},
                        {"model_type", family.name ? json::value(*family.name) : nullptr},
                        {"model_type_source", std::string(name_of(family.source))},
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
    out << request.path << ": " << resolved.summary.entries.size() << " targets, " << counts.covered << " covered, "
        << counts.gaps << " not covered";
    if (counts.native > 0) out << ", " << counts.native << " native";
    if (request.allow_runtime_only) out << ", " << counts.allowed << " runtime-only";
    if (counts.diagnostics > 0) out << ", " << counts.diagnostics << " diagnostics";
    out << " (model_type " << describe(resolved.family) << ")\n";
}

}  // namespace

int check_plan(const Context& context, const PlanRequest& request, std::ostream& out, std::ostream& err) {
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, request, err);
    if (!resolved) return kExitUsage;
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
    const std::optional<ResolvedPlan> resolved = resolve_plan(context, request, err);
    if (!resolved) return kExitUsage;
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
    if (request.digest_only)
        out << summary.digest() << "\n";
    else
        out << summary.canonical_json() << "\n";
    return kExitOk;
}

}  // namespace famspec::cli
