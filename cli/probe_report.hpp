// The report `famspec verify`'s child writes on fd 3 while it loads one plugin: a `stage NAME` line
// as the plugin enters each stage, then one `result {json}` line. Plugin code runs in that child and
// can write to fd 3 too, so the parser trusts nothing: any line it cannot read makes the report
// malformed (never an exception), and a result is accepted only as the last line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/plugin_record.hpp"

namespace famspec::cli {

inline constexpr std::size_t kMaxReportLine = 64 * 1024;

// The child's exit status when plugin code closed or replaced its report descriptor.
inline constexpr int kProbeReportLost = 86;

struct ProbeReport {
    std::string stage = "open";        // the last stage the child announced
    bool has_result = false;           // a well-formed result line arrived
    std::optional<PluginError> error;  // the result said the plugin failed
    std::string malformed;             // non-empty: why the report cannot be trusted
};

// Applies one line (without its newline) to the report.
void apply_report_line(std::string_view line, ProbeReport& report);

// The report's bytes as they arrive from the child: each complete line is applied, a line that
// grows past kMaxReportLine is applied (as too long) at once, a last line without its newline at finish().
class ReportReader {
public:
    explicit ReportReader(ProbeReport& report) : report_(report) {}
    void feed(std::string_view chunk);
    void finish();

private:
    ProbeReport& report_;
    std::string pending_;  // bytes after the last newline
};

// The result line the child writes for an ok plugin, or for a failure.
std::string result_line(const std::string& path, const PluginError* error);

}  // namespace famspec::cli
