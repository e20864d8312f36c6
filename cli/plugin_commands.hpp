// famspec list | show | verify: what the plugins are, what a family declares, and whether each
// plugin loads (checked in a child process, so a crashing plugin cannot take the CLI down).
#pragma once

#include <iosfwd>
#include <string>

#include "context.hpp"
#include "famspec/sdk/parameter.hpp"

namespace famspec::cli {

// A constructor parameter as Python writes it: name, name=1e-06, name=<expression>.
std::string describe(const Parameter& parameter);

// "unknown family 'x' (tried ...); did you mean ...", as every command reports it; returns 1.
int unknown_family(const Context& context, const Registry& registry, const std::string& name, std::ostream& out,
                   std::ostream& err);

int list_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err);
int show_family(const Context& context, const std::string& family, std::ostream& out, std::ostream& err);
int verify_plugins(const Context& context, double timeout_seconds, bool long_list, std::ostream& out,
                   std::ostream& err);

// The child side of verify: load one plugin file, report stages and the result on `result_fd`.
int probe_plugin(const std::string& file, int result_fd);

}  // namespace famspec::cli
