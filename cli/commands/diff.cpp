// famspec diff OLD NEW: which targets' specs changed between two canonical summaries, field by field
// (0 same, 1 differs, 2 a bad file).
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include "command.hpp"
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

void setup_diff(CLI::App& app, Context& context) {
    struct Summaries {
        std::string old_summary;
        std::string new_summary;
    };
    auto files = std::make_shared<Summaries>();
    CLI::App* diff = add_command(app, "diff", "Which targets' specs changed between two summaries, field by field");
    diff->add_option("OLD", files->old_summary, "Canonical summary (famspec summary PLAN > FILE)")->required();
    diff->add_option("NEW", files->new_summary, "Canonical summary to compare with OLD")->required();
    diff->footer("Exit codes: 0 the same declarations, 1 they differ (each difference listed), 2 a bad file.");
    on_run(diff, context, [files] {
        auto& err = std::cerr;
        const auto old_text = read_file(files->old_summary);
        const auto new_text = read_file(files->new_summary);
        if (!old_text || !new_text) {
            err << "famspec: " << (old_text ? files->new_summary : files->old_summary) << ": cannot read the summary\n";
            return kExitUsage;
        }
        const SummaryComparison comparison = compare_summaries(*old_text, *new_text);
        if (!comparison) {
            err << "famspec: " << (comparison.error().starts_with("old") ? files->old_summary : files->new_summary)
                << ": " << comparison.error() << "\n";
            return kExitUsage;
        }
        for (const std::string& difference : *comparison) std::cout << difference << "\n";
        return comparison->empty() ? kExitOk : kExitFailed;
    });
}

}  // namespace famspec::cli
