// famspec info | components | interface-component | external-state: a plugin file's manifest read
// without loading it, the component catalogue, and the two reference questions a runtime asks
// besides resolution (which class a family renders, which classes own their collectives).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "context.hpp"

namespace famspec::cli {

int plugin_info(const Context& context, const std::string& file, std::ostream& out, std::ostream& err);
int list_components(const Context& context, std::ostream& out, std::ostream& err);
int interface_component(const Context& context, const std::string& family, std::ostream& out, std::ostream& err);
int external_state(const Context& context, const std::string& plan, const std::optional<std::string>& model_type,
                   std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
