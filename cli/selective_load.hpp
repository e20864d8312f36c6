// The load behind summary, check and resolve: the rows of the plugins the plan or target touches
// (famspec/read_selection.hpp), and every plugin's when the answer drawn from those may draw on more.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>

#include "context.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"

namespace famspec::cli {

// Whether an answer of this status came from the declarations of the plugins it names alone. A target
// not covered may be explained with every plugin's names (the nearest ones, the family that owns it),
// and an error is rare enough to be answered as a full load answers it.
bool answered_within_selection(ResolutionStatus status);

// Loads what `selection` touches (everything when it is empty) and keeps that registry when
// `answered_within(registry)` is true; otherwise loads every plugin. What the kept load reported (notes,
// refused plugins) is written to err, once.
std::shared_ptr<const Registry> load_for_answer(
    const Context& context, const std::optional<ReadSelection>& selection, std::ostream& err,
    const std::function<bool(const std::shared_ptr<const Registry>&)>& answered_within);

}  // namespace famspec::cli
