// famspec list | show | verify: what the plugins are, what a family declares, and whether each
// plugin file reads and checks whole.
#pragma once

#include <iosfwd>
#include <string>

#include "context.hpp"
#include "famspec/parameter.hpp"

namespace famspec::cli {

// A constructor parameter as Python writes it: name, name=1e-06, name=<expression>.
std::string describe(const Parameter& parameter);

// "unknown family 'x' (tried ...); did you mean ...", as every command reports it; returns 1.
int unknown_family(const Context& context, const Registry& registry, const std::string& name, std::ostream& out,
                   std::ostream& err);

int list_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err);
int show_family(const Context& context, const std::string& family, std::ostream& out, std::ostream& err);
int verify_plugins(const Context& context, bool long_list, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
