#pragma once

#include <iosfwd>

#include "context.hpp"

namespace famspec::cli {

// Answers the queries read from descriptor `input` (stdin). Exit 0 when every query resolved, 1 when
// one did not or a plugin failed (without --allow-partial: then none is answered), 2 when a line was
// not a query or the input could not be read. `strict`: every diagnostic makes a target not covered.
int resolve_batch(const Context& context, int input, bool strict, std::ostream& out, std::ostream& err);

}  // namespace famspec::cli
