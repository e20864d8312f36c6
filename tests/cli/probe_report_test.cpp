// verify's report-line parser reads what plugin code may have written: every line it cannot read
// makes the report malformed, never an exception, and a result counts only as the last line.
#include "probe_report.hpp"

#include <doctest/doctest.h>

#include <string>

using famspec::cli::apply_report_line;
using famspec::cli::kMaxReportLine;
using famspec::cli::ProbeReport;
using famspec::cli::result_line;

namespace {

ProbeReport read(std::initializer_list<std::string> lines) {
    ProbeReport report;
    for (const auto& line : lines) apply_report_line(line, report);
    return report;
}

}  // namespace

TEST_CASE("a well-formed report: stages, then an ok or an error result") {
    const ProbeReport ok = read({"stage open", "stage register", "result {\"path\":\"/p.so\",\"status\":\"ok\"}"});
    CHECK(ok.malformed.empty());
    CHECK(ok.has_result);
    CHECK(ok.stage == "register");
    CHECK_FALSE(ok.error);

    famspec::PluginError error{"/p.so", famspec::PluginStage::register_, "x", "y", "", "/p.so: registration threw"};
    std::string line = result_line("/p.so", &error);
    line.pop_back();  // the newline
    const ProbeReport failed = read({"stage register", line});
    CHECK(failed.malformed.empty());
    REQUIRE(failed.error);
    CHECK(failed.error->stage == famspec::PluginStage::register_);
    CHECK(failed.error->message == "/p.so: registration threw");
    CHECK(failed.error->expected == "x");
    CHECK(failed.error->found == "y");
}

TEST_CASE("every kind of unreadable line makes the report malformed, with the first problem named") {
    const std::pair<std::string, std::string> cases[] = {
        {"stage nowhere", "it names no known stage: 'stage nowhere'"},
        {"result not json", "its result is not a JSON object: 'result not json'"},
        {"result [1,2]", "its result is not a JSON object: 'result [1,2]'"},
        {"result {\"status\":7}", "its result has no status \"ok\" or \"error\": 'result {\"status\":7}'"},
        {"result {\"status\":\"error\",\"stage\":\"open\"}",
         "its error result lacks a known stage or a message: 'result {\"status\":\"error\",\"stage\":\"open\"}'"},
        {"result {\"status\":\"error\",\"stage\":9,\"message\":\"m\"}",
         "its error result lacks a known stage or a message: 'result "
         "{\"status\":\"error\",\"stage\":9,\"message\":\"m\"}'"},
        {"hello", "a line is neither a stage nor a result: 'hello'"},
        {"\x1b[2J", "a line is neither a stage nor a result: '\\x1b[2J'"},
    };
    for (const auto& [line, problem] : cases) {
        CAPTURE(line);
        const ProbeReport report = read({"stage open", line, "stage register"});
        CHECK(report.malformed == problem);
        CHECK(report.stage == "open");  // nothing after a malformed line is taken
    }
}

TEST_CASE("a line after the result, or an overlong line, is malformed") {
    const ProbeReport after = read({"result {\"status\":\"ok\"}", "result {\"status\":\"ok\"}"});
    CHECK(after.malformed == "a line follows its result: 'result {\"status\":\"ok\"}'");

    const ProbeReport longer = read({std::string(kMaxReportLine + 1, 'a')});
    CHECK(longer.malformed == "a line is longer than 65536 bytes: '" + std::string(80, 'a') + "...'");
}
