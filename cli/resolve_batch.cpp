// famspec resolve --batch: one JSON query per line in, one JSON answer per line out, in one
// process with one resolver, so a runtime pays for loading the plugins once.
//   in:  {"target": T, "model_type": M?, "module_type": X?, "slot": S?, "options": {k: v}?}
//   out: {"status", "spec", "reason", "gap"} or {"error": {...}} for a line that is not a query
#include "resolve_batch.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <cstdint>
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

// The first number in a JSON text that a double or an int64 cannot hold, as written. The JSON reader
// would turn 1e400 into infinity and 1e-400 into 0.0, and the option would say something else.
std::optional<std::string> unrepresentable_number(std::string_view text) {
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '\\') ++i;
            quoted = c != '"';
            continue;
        }
        if (c == '"') quoted = true;
        if (c != '-' && (c < '0' || c > '9')) continue;
        const std::size_t end = text.find_first_not_of("0123456789+-.eE", i);
        const std::string_view number = text.substr(i, end - i);
        i = end == std::string_view::npos ? text.size() : end - 1;
        const bool integer = number.find_first_of(".eE") == std::string_view::npos;
        std::int64_t whole = 0;
        double real = 0;
        const auto read = integer ? std::from_chars(number.data(), number.data() + number.size(), whole)
                                  : std::from_chars(number.data(), number.data() + number.size(), real);
        if (read.ec != std::errc()) return std::string(number);
    }
    return std::nullopt;
}

// The request a query line asks for, or a problem naming what is wrong with it.
std::optional<ResolveFlags> read_query(std::string_view line, std::string& problem) {
    if (const auto number = unrepresentable_number(line)) {
        problem = "number " + *number + " is out of range (an option number must fit a double, an integer an int64)";
        return std::nullopt;
    }
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
    request.slot_name = optional_string(query, "slot", problem).value_or("replace_module");
    if (problem.empty() && request.target.empty()) problem = "'target' is required";
    if (const json::value* options = query.if_contains("options"); options != nullptr && problem.empty()) {
        if (!options->is_object()) problem = "'options' must be an object";
        for (const auto& [key, option] : options->is_object() ? options->get_object() : json::object{}) {
            // A JSON scalar is also a YAML flow scalar: read the same way as --option k=v, once the
            // name is known to be an identifier (no '=' or '#' to move where the value starts).
            const std::string value = json::serialize(option);
            if (auto read = parse_option(key, value); !read && problem.empty()) problem = read.error().message;
            request.option_items.push_back(std::string(key) + "=" + value);
        }
    }
    if (!problem.empty()) return std::nullopt;
    return request;
}

// Reads one line, keeping at most `limit` bytes of it: the rest of a longer line is read and dropped,
// so no line can exhaust memory and the next one is read as usual. False at the end of the input.
bool read_line(std::istream& in, std::string& line, std::size_t limit, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf& input = *in.rdbuf();
    for (int c = input.sbumpc(); c != std::char_traits<char>::eof(); c = input.sbumpc()) {
        if (c == '\n') return true;
        if (line.size() < limit) {
            line.push_back(static_cast<char>(c));
        } else {
            too_long = true;
        }
    }
    return !line.empty() || too_long;
}

}  // namespace

int resolve_batch(const Context& context, std::istream& in, std::ostream& out, std::ostream& err) {
    const Resolver resolver(context.load(err));
    int worst = kExitOk;
    std::size_t number = 0;
    std::string line;
    for (bool too_long = false; read_line(in, line, kMaxQueryLine, too_long);) {
        ++number;
        std::string problem = too_long ? "a query line is longer than 1 MiB (the rest of it is skipped)" : "";
        std::optional<ResolveFlags> request = problem.empty() ? read_query(line, problem) : std::nullopt;
        const std::optional<Slot> slot = request ? slot_from(request->slot_name) : std::nullopt;
        if (request && !slot) problem = "'slot' must be replace_module, local_compute_fn or inner_wrapper";
        std::optional<Options> options = slot ? parse_options(request->option_items, problem) : std::nullopt;
        if (!options) {
            const CliError error{"usage", problem, "<stdin>", static_cast<int>(number), {}};
            print_json(out, json::object{{"error", error_json(error)}});
            out.flush();
            worst = kExitUsage;
            continue;
        }
        request->slot = *slot;
        request->options = std::move(*options);
        const bool answered = resolve_request(resolver, *request, [&out](const auto& answer) {
            const std::optional<Gap> gap = answer.gap();
            print_json(out,
                       json::object{{"status", std::string(name_of(answer.status()))},
                                    {"spec", json::parse(spec_json(answer))},
                                    {"reason", answer.reason()},
                                    {"gap", gap ? json::value(std::string(name_of(*gap))) : json::value(nullptr)}});
            return answer.resolved() != nullptr || std::holds_alternative<Native>(answer.state);
        });
        out.flush();
        if (!answered && worst == kExitOk) worst = kExitFailed;
    }
    return worst;
}

}  // namespace famspec::cli
