// famspec resolve --batch: one JSON query per line in, one JSON answer per line out, in one
// process with one resolver, so a runtime pays for loading the plugins once.
//   in:  {"target": T, "model_type": M?, "module_type": X?, "slot": S?, "options": {k: v}?}
//   out: {"status", "spec", "reason", "gap"} or {"error": {...}} for a line that is not a query
#include "resolve_batch.hpp"

#include <boost/json.hpp>
#include <istream>
#include <ostream>

#include "famspec/names.hpp"
#include "famspec/plan_option.hpp"
#include "plan_commands.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

constexpr std::size_t kMaxQueryLine = 1 << 20;

std::optional<std::string> optional_string(const json::object& query, std::string_view key, std::string& problem) {
    const json::value* value = query.if_contains(key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_string()) problem = "'" + std::string(key) + "' must be a string or null";
    return value->is_string() ? std::optional<std::string>(std::string(value->get_string())) : std::nullopt;
}

// The request a query line asks for, or a problem naming what is wrong with it.
std::optional<ResolveFlags> read_query(std::string_view line, std::string& problem) {
    boost::system::error_code ec;
    const json::value value = json::parse(line, ec);
    if (ec || !value.is_object()) {
        problem = "expected a JSON object per line";
        return std::nullopt;
    }
    const json::object& query = value.get_object();
    for (const auto& [key, member] : query) {
        if (key != "target" && key != "model_type" && key != "module_type" && key != "slot" && key != "options") {
            problem = "unknown key '" + std::string(key) + "' (target, model_type, module_type, slot, options)";
            return std::nullopt;
        }
    }
    ResolveFlags request;
    request.target = optional_string(query, "target", problem).value_or("");
    request.model_type = optional_string(query, "model_type", problem);
    request.module_type = optional_string(query, "module_type", problem);
    request.slot = optional_string(query, "slot", problem).value_or("replace_module");
    if (problem.empty() && request.target.empty()) problem = "'target' is required";
    if (const json::value* options = query.if_contains("options"); options != nullptr && problem.empty()) {
        if (!options->is_object()) problem = "'options' must be an object";
        for (const auto& [key, option] : options->is_object() ? options->get_object() : json::object{}) {
            // A JSON scalar is also a YAML flow scalar: read the same way as --option k=v.
            request.options.push_back(std::string(key) + "=" + json::serialize(option));
        }
    }
    if (!problem.empty()) return std::nullopt;
    return request;
}

}  // namespace

int resolve_batch(const Context& context, std::istream& in, std::ostream& out, std::ostream& err) {
    const Resolver resolver(context.load(err));
    int worst = kExitOk;
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        std::string problem = line.size() > kMaxQueryLine ? "a query line is longer than 1 MiB" : "";
        std::optional<ResolveFlags> request = problem.empty() ? read_query(line, problem) : std::nullopt;
        const std::optional<Slot> slot = request ? slot_from(request->slot) : std::nullopt;
        if (request && !slot) problem = "'slot' must be replace_module, local_compute_fn or inner_wrapper";
        const std::optional<Options> options = slot ? parse_options(request->options, problem) : std::nullopt;
        if (!options) {
            const CliError error{"usage", problem, "<stdin>", static_cast<int>(number), {}};
            print_json(out, json::object{{"error", error_json(error)}});
            out.flush();
            worst = kExitUsage;
            continue;
        }
        const ResolveAnswer answer = resolve_request(resolver, *request, *slot, *options);
        const bool resolved = answer.status == ResolutionStatus::resolved || answer.status == ResolutionStatus::native;
        json::object reply{
            {"status", std::string(name_of(answer.status))},
            {"spec", json::parse(answer.spec)},
            {"reason", answer.reason},
            {"gap", answer.gap == Gap::none ? json::value(nullptr) : json::value(std::string(name_of(answer.gap)))}};
        print_json(out, reply);
        out.flush();
        if (!resolved && worst == kExitOk) worst = kExitFailed;
    }
    return worst;
}

}  // namespace famspec::cli
