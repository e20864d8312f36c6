#pragma once

#include <iosfwd>

#include "context.hpp"

namespace famspec::cli {

// Exit 0 when every query resolved, 1 when one did not, 2 when a line was not a query.
int resolve_batch(const Context& context, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
