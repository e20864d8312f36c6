// famspec resolve --batch: one JSON query per line in, one JSON answer per line out, in one
// process with one resolver, so a runtime pays for loading the plugins once.
//   in:  {"target": T, "model_type": M?, "module_type": X?, "slot": S?, "options": {k: v}?}
//   out: {"status", "spec", "reason", "gap", "diagnostics"}, or {"error": {...}} for a line that is no query
// As every answering command: with a plugin that failed and no --allow-partial, no query is answered.
#include "resolve_batch.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <ostream>

#include "famspec/canonical_json.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_option.hpp"
#include "output.hpp"
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

// The query lines of a descriptor, read with read(2) so that an error (stdin a directory, EIO) is
// told from the end of the input, which a stream's end-of-file would not.
class QueryLines {
public:
    explicit QueryLines(int fd) : fd_(fd) {}

    // Reads one line, keeping at most `limit` bytes of it: the rest of a longer line is read and
    // dropped, so no line can exhaust memory and the next one is read as usual. False at the end of
    // the input or at a read error (error() then says which).
    bool next(std::string& line, std::size_t limit, bool& too_long) {
        line.clear();
        too_long = false;
        for (int c = take(); c >= 0; c = take()) {
            if (c == '\n') return true;
            if (line.size() < limit) {
                line.push_back(static_cast<char>(c));
            } else {
                too_long = true;
            }
        }
        return error_ == 0 && (!line.empty() || too_long);
    }

    int error() const { return error_; }

private:
    // The next byte, or -1 at the end of the input or at an error.
    int take() {
        if (at_ == size_ && !fill()) return -1;
        return static_cast<unsigned char>(buffer_[at_++]);
    }

    bool fill() {
        while (error_ == 0) {
            const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
            if (n > 0) {
                at_ = 0;
                size_ = static_cast<std::size_t>(n);
                return true;
            }
            if (n == 0) return false;
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a non-blocking stdin: wait for input
                pollfd ready{fd_, POLLIN, 0};
                ::poll(&ready, 1, -1);
                continue;
            }
            error_ = errno;
        }
        return false;
    }

    int fd_;
    std::array<char, 65536> buffer_{};
    std::size_t at_ = 0;
    std::size_t size_ = 0;
    int error_ = 0;
};

// Why descriptor `fd` cannot be the queries' input, before any plugin is loaded; empty when it can.
std::string unusable_input(int fd) {
    if (stdin_was_closed()) return "stdin is closed: give the queries on stdin, one JSON object a line";
    struct stat status {};
    if (::fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) {
        return "stdin is a directory: give the queries on stdin, one JSON object a line";
    }
    return {};
}

json::array answer_diagnostics(const std::vector<Diagnostic>& diagnostics) {
    json::array out;
    for (const Diagnostic& d : diagnostics) out.push_back(diagnostic_json(d));
    return out;
}

}  // namespace

int resolve_batch(const Context& context, int input, bool strict, std::ostream& out, std::ostream& err) {
    if (const std::string problem = unusable_input(input); !problem.empty()) {
        return context.fail(kExitUsage, {"input", problem, "<stdin>", {}, {}}, out, err);
    }
    auto registry = context.load_complete(out, err);
    if (!registry) return kExitFailed;
    const Resolver resolver(std::move(registry));
    QueryLines lines(input);
    int worst = kExitOk;
    std::size_t number = 0;
    std::string line;
    for (bool too_long = false; lines.next(line, kMaxQueryLine, too_long);) {
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
        request->strict = strict;
        const bool answered = resolve_request(resolver, *request, [&](const auto& answer) {
            const std::optional<Gap> gap = answer.gap();
            // The diagnostics a single resolve notes on stderr (an ignored_option, say), in the answer.
            print_json(out, json::object{{"status", std::string(name_of(answer.status()))},
                                         {"spec", json::parse(spec_json(answer))},
                                         {"reason", answer.reason()},
                                         {"gap", gap ? json::value(std::string(name_of(*gap))) : json::value(nullptr)},
                                         {"diagnostics", answer_diagnostics(answer.diagnostics)}});
            for (const Diagnostic& d : answer.diagnostics) {
                context.note(err, "famspec: <stdin>:" + std::to_string(number) +
                                      ": diagnostic: " + std::string(name_of(d.kind)) + ": " + d.message);
            }
            return answer.resolved() != nullptr || std::holds_alternative<Native>(answer.state);
        });
        out.flush();
        if (!answered && worst == kExitOk) worst = kExitFailed;
    }
    // A read error is not the end of the input: the queries after it were never answered.
    if (lines.error() != 0) {
        return context.fail(kExitUsage,
                            {"input",
                             "cannot read the queries from stdin: " + std::string(std::strerror(lines.error())),
                             "<stdin>",
                             static_cast<int>(number + 1),
                             {}},
                            out, err);
    }
    return worst;
}

}  // namespace famspec::cli
