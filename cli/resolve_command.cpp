// famspec resolve: one target, from the plugins it touches.
#include <ostream>

#include "famspec/names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/plan_option.hpp"
#include "famspec/read_selection.hpp"
#include "famspec/resolver.hpp"
#include "plan_commands.hpp"
#include "selective_load.hpp"

namespace famspec::cli {
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

namespace {

// The family a request is resolved for, as `registry` reads it, and the request under that family.
struct AskedOf {
    PlanFamily family;
    ResolveFlags request;
};

AskedOf asked_of(const ResolveFlags& request, const std::optional<Plan>& plan, const Registry& registry) {
    AskedOf asked{{request.model_type, request.model_type ? FamilySource::caller : FamilySource::per_target}, request};
    if (plan) {
        asked.family = plan_family(*plan, request.model_type, registry);
        asked.request.model_type = asked.family.name;
    }
    return asked;
}

// The plugins the target touches, and the family spellings of the plan; everything under --strict,
// whose answer is for the whole set.
std::optional<ReadSelection> selection_of(const ResolveFlags& request, const std::optional<Plan>& plan) {
    if (request.strict) return std::nullopt;
    ReadSelection selection;
    if (plan) selection.families = read_selection(*plan, request.model_type).families;
    add_to_selection(selection, request.target, request.model_type);
    return selection;
}

int answer_target(const Context& context, const ResolveFlags& request, const std::optional<Plan>& plan,
                  std::ostream& out, std::ostream& err) {
    const bool reads_family = target_reads_family(request.slot, request.target);
    const auto answered = [&](const std::shared_ptr<const Registry>& registry) {
        // No answer is given; what is refused before any row is read is refused by a full load too.
        if (!registry->all_ok() && !context.allow_partial) return true;
        const AskedOf asked = asked_of(request, plan, *registry);
        if (!family_known(context, asked.family, reads_family, *registry)) return false;
        return resolve_request(Resolver(registry), asked.request,
                               [](const auto& answer) { return answered_within_selection(answer.status()); });
    };
    auto registry = load_for_answer(context, selection_of(request, plan), err, answered);
    if (!context.complete(*registry, out, err)) return kExitFailed;
    const AskedOf asked = asked_of(request, plan, *registry);
    if (!family_known(context, asked.family, reads_family, *registry)) {
        return refuse_unknown_family(context, asked.family, *registry, out, err);
    }
    const Resolver resolver(std::move(registry));
    return resolve_request(resolver, asked.request, [&](const auto& answer) {
        return report(context, asked.request, asked.family, answer, out, err);
    });
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
    std::optional<Plan> plan;
    if (request.plan) {
        int failure = kExitUsage;
        plan = read_checked_plan(context, *request.plan, request.strict, out, err, failure);
        if (!plan) return failure;
    }
    return answer_target(context, std::move(request), plan, out, err);
}

}  // namespace famspec::cli
