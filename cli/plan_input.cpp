#include "plan_input.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <ostream>

namespace famspec::cli {

PlanParse read_plan(const std::string& path, bool strict) {
    if (path != "-") return parse_plan_file(path, {}, strict);
    // One byte past the limit is enough for the parser to refuse an oversized plan by name.
    const std::size_t limit = PlanLimits{}.max_bytes + 1;
    std::string text;
    std::array<char, 65536> chunk{};
    while (text.size() < limit) {
        const ssize_t n = ::read(0, chunk.data(), std::min(chunk.size(), limit - text.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const PlanError error{kStdinPlanName, {}, std::string("cannot read the plan: ") + std::strerror(errno)};
            return unexpected(PlanErrors{{error}, false});
        }
        if (n == 0) break;
        text.append(chunk.data(), static_cast<std::size_t>(n));
    }
    return parse_plan_text(text, kStdinPlanName, {}, strict);
}

CliError plan_error(const PlanError& error) {
    CliError out{"plan", error.to_string(), error.file, {}, {}};
    if (error.location.line > 0) {
        out.line = static_cast<int>(error.location.line);
        out.column = static_cast<int>(error.location.column);
    }
    return out;
}

int fail_plan(const Context& context, const PlanParse& parsed, std::ostream& out, std::ostream& err) {
    const PlanErrors& errors = parsed.error();
    boost::json::array all;
    for (const PlanError& error : errors.errors) {
        err << "famspec: " << error.to_string() << "\n";
        all.push_back(error_json(plan_error(error)));
    }
    if (errors.stopped_early) {
        err << "famspec: " << errors.first().file << ": stopped after " << errors.errors.size()
            << " errors; there may be more\n";
    }
    if (context.json) {
        print_json(out, boost::json::object{{"error", error_json(plan_error(errors.first()))},
                                            {"errors", std::move(all)},
                                            {"stopped_early", errors.stopped_early}});
    }
    return kExitUsage;
}

}  // namespace famspec::cli
