// famspec audit: proves the loaded plugins' declarations against the runtime's Python source. The
// audit is Python (it reads the source with ast); this command runs it with Debian's interpreter.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "context.hpp"
#include "python_command.hpp"

namespace CLI {
class App;
}

namespace famspec::cli {

struct AuditRequest {
    std::string source_root;
    std::vector<std::string> families;
    bool strict = false;
    bool verbose = false;
};

CLI::App* add_audit_command(CLI::App& app, AuditRequest& request);

// Runs `python3 -m famspec audit ...` with the famspec package on PYTHONPATH and the same plugin
// directories this command would search; returns its exit code (0 no drift, 1 drift, 2 bad input).
int run_audit(const Context& context, const AuditRequest& request, std::ostream& err);

}  // namespace famspec::cli
