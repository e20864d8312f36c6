#include "error_report.hpp"

#include "escape.hpp"
#include "famspec/canonical_json.hpp"
#include "output.hpp"

namespace famspec::cli {

boost::json::object error_json(const CliError& error) {
    auto optional = [](const auto& value) { return value ? boost::json::value(*value) : boost::json::value(nullptr); };
    return {{"kind", error.kind},
            {"message", error.message},
            {"file", optional(error.file)},
            {"line", optional(error.line)},
            {"column", optional(error.column)}};
}

std::string error_json_line(const CliError& error) {
    return canonical_json(boost::json::object{{"error", error_json(error)}}) + "\n";
}

void write_error(const CliError& error, bool json, int answer_fd) {
    write_all(2, "famspec: error: " + escape_control(error.message) + "\n");
    if (json) write_all(answer_fd, error_json_line(error));
}

}  // namespace famspec::cli
