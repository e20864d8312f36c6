// Which registered family a query is about: the one its model_type spells, else the one its target's
// path names. The resolver's channels choose it before anything else.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "famspec/explanation.hpp"
#include "famspec/registry.hpp"

namespace famspec::detail {

// Which family a lookup is about: the explicit model_type (any spelling), or the one named by an
// adapter-convention path. An explicit spelling no plugin knows never falls back to the path.
struct FamilyChoice {
    const RegisteredFamily* family = nullptr;
    std::optional<std::string> requested;  // the spelling asked for, explicit or inferred
    bool inferred = false;
};

FamilyChoice choose_family(const Registry& registry, const std::optional<std::string>& model_type,
                           std::string_view target, Explanation& explanation);
std::string unknown_family(const FamilyChoice& choice);
std::string_view family_name(const FamilyChoice& choice);  // the registered model_type, or the spelling asked

}  // namespace famspec::detail
