#include "selective_load.hpp"

#include <ostream>
#include <sstream>

namespace famspec::cli {

bool answered_within_selection(ResolutionStatus status) {
    return status == ResolutionStatus::resolved || status == ResolutionStatus::native;
}

std::shared_ptr<const Registry> load_for_answer(
    const Context& context, const std::optional<ReadSelection>& selection, std::ostream& err,
    const std::function<bool(const std::shared_ptr<const Registry>&)>& answered_within) {
    if (!selection) return context.load(err);
    // Held back until the answer shows this load is the one kept: a load read twice reports once.
    std::ostringstream reported;
    auto registry = context.load(reported, selection);
    if (!answered_within(registry)) return context.load(err);
    err << reported.str();
    return registry;
}

}  // namespace famspec::cli
