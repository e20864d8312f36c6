// Why the registry does not answer a target in the slot it was asked for, said the same way for
// replacement factories, MoE compute factories and CP wrappers: the slot it belongs in, the family
// that owns it, or the nearest names the family does register.
#pragma once

#include <string>
#include <string_view>

#include "famspec/explanation.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"

namespace famspec::detail {

enum class TargetKind { replacement_factory, compute_factory, cp_wrapper };

struct Unanswered {
    Gap gap = Gap::not_registered;
    std::string reason;
    std::string rule;  // for the explanation
};

// family: the family asked for (explicit or inferred), or nullptr when there is none. A target
// that `family` owns in the asked kind is not unowned: do not call this for it. alternative: what
// else would have covered the target, said after "not registered by ...".
Unanswered unowned_target(const Registry& registry, std::string_view target, TargetKind asked,
                          const RegisteredFamily* family, std::string_view alternative = {});

}  // namespace famspec::detail
