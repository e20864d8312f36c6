#include "probe_report.hpp"

#include <boost/json.hpp>

#include "escape.hpp"
#include "famspec/names.hpp"

namespace famspec::cli {
namespace json = boost::json;
namespace {

// A string member, or nullopt when it is missing or not a string.
std::optional<std::string> string_field(const json::object& object, std::string_view key) {
    const json::value* value = object.if_contains(key);
    if (value == nullptr || !value->is_string()) return std::nullopt;
    return std::string(value->get_string());
}

// Returns a problem, or "" when the result was read into report.
std::string read_result(std::string_view text, ProbeReport& report) {
    boost::system::error_code ec;
    const json::value value = json::parse(text, ec);
    if (ec || !value.is_object()) return "its result is not a JSON object";
    const json::object& object = value.get_object();
    const std::optional<std::string> status = string_field(object, "status");
    if (status == "ok") {
        report.has_result = true;
        return {};
    }
    if (status != "error") return "its result has no status \"ok\" or \"error\"";
    PluginError error;
    const std::optional<std::string> stage = string_field(object, "stage");
    const std::optional<PluginStage> known = stage ? from_name<PluginStage>(*stage) : std::nullopt;
    const std::optional<std::string> message = string_field(object, "message");
    // An empty message would make verify report a failure that says nothing.
    if (!known || !message || message->empty()) return "its error result lacks a known stage or a message";
    error.stage = *known;
    error.message = *message;
    error.path = string_field(object, "path").value_or("");
    error.expected = string_field(object, "expected").value_or("");
    error.found = string_field(object, "found").value_or("");
    report.error = std::move(error);
    report.has_result = true;
    return {};
}

}  // namespace

void apply_report_line(std::string_view line, ProbeReport& report) {
    if (!report.malformed.empty()) return;  // the first problem is the one reported
    std::string problem;
    if (report.has_result) {
        problem = "a line follows its result";
    } else if (line.size() > kMaxReportLine) {
        problem = "a line is longer than " + std::to_string(kMaxReportLine) + " bytes";
    } else if (line.starts_with("stage ")) {
        if (from_name<PluginStage>(line.substr(6))) {
            report.stage = std::string(line.substr(6));
            return;
        }
        problem = "it names no known stage";
    } else if (line.starts_with("result ")) {
        problem = read_result(line.substr(7), report);
    } else {
        problem = "a line is neither a stage nor a result";
    }
    if (problem.empty()) return;
    constexpr std::size_t kShown = 80;
    report.malformed = problem + ": '" + escape_foreign(line.substr(0, kShown)) + (line.size() > kShown ? "...'" : "'");
}

void ReportReader::feed(std::string_view chunk) {
    pending_.append(chunk);
    std::size_t start = 0;
    for (std::size_t eol = pending_.find('\n'); eol != std::string::npos; eol = pending_.find('\n', start)) {
        apply_report_line(std::string_view(pending_).substr(start, eol - start), report_);
        start = eol + 1;
    }
    pending_.erase(0, start);
    if (pending_.size() > kMaxReportLine) {
        apply_report_line(pending_, report_);  // reported as too long
        pending_.clear();
    }
}

void ReportReader::finish() {
    if (!pending_.empty()) apply_report_line(pending_, report_);
    pending_.clear();
}

std::string result_line(const std::string& path, const PluginError* error) {
    json::object result{{"path", path}, {"status", "ok"}};
    if (error != nullptr) {
        result = {
            {"path", error->path},       {"status", "error"},           {"stage", std::string(name_of(error->stage))},
            {"message", error->message}, {"expected", error->expected}, {"found", error->found}};
    }
    return "result " + json::serialize(result) + "\n";
}

}  // namespace famspec::cli
