#include "famspec/plan_keys.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "famspec/nearest_names.hpp"
#include "plan/yaml_node.hpp"

namespace famspec {
namespace {

constexpr std::array<std::string_view, 16> kEntryKeys = {
    "match",        "when",          "module_type",   "exact_type",      "replace_module", "local_compute_fn",
    "inner_target", "inner_wrapper", "inner_out_src", "region_dispatch", "params",         "in_src",
    "in_dst",       "out_src",       "out_dst",       "tp_divide_attrs"};

constexpr std::array<std::string_view, 3> kSlotKeys = {"replace_module", "local_compute_fn", "inner_wrapper"};

constexpr std::array<std::string_view, 5> kTopLevelKeys = {"plan_overrides", "model_type", "architecture", "codegen",
                                                           "model"};

bool is_slot(std::string_view key) { return std::find(kSlotKeys.begin(), kSlotKeys.end(), key) != kSlotKeys.end(); }

UnreadKey unread(std::string_view key, std::string_view what, const std::vector<std::string>& nearest) {
    UnreadKey out;
    out.message = std::string(what) + " " + detail::shown(key) + " is not read by famspec" + did_you_mean(nearest);
    if (!nearest.empty()) out.suggestion = nearest.front();
    out.drops_target = is_slot(out.suggestion);
    return out;
}

}  // namespace

std::string UnreadKey::warning() const {
    return drops_target ? message + ": the target under it would be left out" : message;
}

std::optional<UnreadKey> unread_entry_key(std::string_view key) {
    if (std::find(kEntryKeys.begin(), kEntryKeys.end(), key) != kEntryKeys.end()) return std::nullopt;
    return unread(key, "plan_overrides entry key", nearest_names(key, kEntryKeys, 1));
}

std::optional<UnreadKey> unread_top_level_key(std::string_view key) {
    if (std::find(kTopLevelKeys.begin(), kTopLevelKeys.end(), key) != kTopLevelKeys.end()) return std::nullopt;
    const auto nearest = nearest_names(key, kTopLevelKeys, 1);
    if (nearest.empty()) return std::nullopt;
    return unread(key, "top-level key", nearest);
}

bool refuses_plan(const PlanWarning& warning) { return is_slot(warning.suggestion); }

std::string plan_refusal_reason(std::size_t refusing_warnings) {
    return std::to_string(refusing_warnings) +
           " misspelt slot key(s): the plan is refused rather than answered without their targets";
}

}  // namespace famspec
