#include "diff_command.hpp"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>

#include "context.hpp"
#include "famspec/summary_diff.hpp"

namespace famspec::cli {
namespace {

std::optional<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

CLI::App* add_diff_command(CLI::App& app, DiffRequest& request) {
    CLI::App* diff = app.add_subcommand("diff", "Which targets' specs changed between two summaries, field by field");
    diff->add_option("OLD", request.old_summary, "Canonical summary (famspec summary PLAN > FILE)")->required();
    diff->add_option("NEW", request.new_summary, "Canonical summary to compare with OLD")->required();
    diff->footer("Exit codes: 0 the same declarations, 1 they differ (each difference listed), 2 a bad file.");
    return diff;
}

int run_diff(const DiffRequest& request, std::ostream& out, std::ostream& err) {
    const auto old_text = read_file(request.old_summary);
    const auto new_text = read_file(request.new_summary);
    if (!old_text || !new_text) {
        err << "famspec: " << (old_text ? request.new_summary : request.old_summary) << ": cannot read the summary\n";
        return kExitUsage;
    }
    const SummaryComparison comparison = compare_summaries(*old_text, *new_text);
    if (!comparison) {
        err << "famspec: " << (comparison.error().starts_with("old") ? request.old_summary : request.new_summary)
            << ": " << comparison.error() << "\n";
        return kExitUsage;
    }
    for (const std::string& difference : *comparison) out << difference << "\n";
    return comparison->empty() ? kExitOk : kExitFailed;
}

}  // namespace famspec::cli
