#include "famspec/names.hpp"

#include <array>
#include <utility>

namespace famspec {
namespace {

template <class Enum, std::size_t N>
using Table = std::array<std::pair<Enum, std::string_view>, N>;

constexpr Table<Gap, 11> kGaps = {{{Gap::none, "none"},
                                   {Gap::no_target, "no_target"},
                                   {Gap::no_channel, "no_channel"},
                                   {Gap::unknown_family, "unknown_family"},
                                   {Gap::not_registered, "not_registered"},
                                   {Gap::wrong_family, "wrong_family"},
                                   {Gap::wrong_slot, "wrong_slot"},
                                   {Gap::runtime_only, "runtime_only"},
                                   {Gap::missing_module_type, "missing_module_type"},
                                   {Gap::component_mismatch, "component_mismatch"},
                                   {Gap::bad_option, "bad_option"}}};

constexpr Table<Slot, 3> kSlots = {{{Slot::replace_module, "replace_module"},
                                    {Slot::local_compute_fn, "local_compute_fn"},
                                    {Slot::inner_wrapper, "inner_wrapper"}}};

constexpr Table<ResolutionStatus, 4> kStatuses = {{{ResolutionStatus::resolved, "resolved"},
                                                   {ResolutionStatus::not_covered, "not_covered"},
                                                   {ResolutionStatus::error, "error"},
                                                   {ResolutionStatus::native, "native"}}};

constexpr Table<DiagnosticKind, 4> kDiagnostics = {{{DiagnosticKind::unregistered_wrapper, "unregistered_wrapper"},
                                                    {DiagnosticKind::ignored_option, "ignored_option"},
                                                    {DiagnosticKind::family_mismatch, "family_mismatch"},
                                                    {DiagnosticKind::runtime_only, "runtime_only"}}};

constexpr Table<FamilySource, 5> kFamilySources = {{{FamilySource::caller, "--model-type"},
                                                    {FamilySource::model_type, "model_type"},
                                                    {FamilySource::architecture, "architecture"},
                                                    {FamilySource::model_target, "model._target_"},
                                                    {FamilySource::per_target, "per-target"}}};

template <class Enum>
constexpr const auto& table();
template <>
constexpr const auto& table<Gap>() {
    return kGaps;
}
template <>
constexpr const auto& table<Slot>() {
    return kSlots;
}
template <>
constexpr const auto& table<ResolutionStatus>() {
    return kStatuses;
}
template <>
constexpr const auto& table<DiagnosticKind>() {
    return kDiagnostics;
}
template <>
constexpr const auto& table<FamilySource>() {
    return kFamilySources;
}

}  // namespace

template <class Enum>
std::string_view name_of(Enum value) {
    for (const auto& [e, name] : table<Enum>()) {
        if (e == value) return name;
    }
    return table<Enum>().front().second;
}

template <class Enum>
std::optional<Enum> from_name(std::string_view name) {
    for (const auto& [e, n] : table<Enum>()) {
        if (n == name) return e;
    }
    return std::nullopt;
}

template FAMSPEC_API std::string_view name_of(Gap);
template FAMSPEC_API std::string_view name_of(Slot);
template FAMSPEC_API std::string_view name_of(ResolutionStatus);
template FAMSPEC_API std::string_view name_of(DiagnosticKind);
template FAMSPEC_API std::string_view name_of(FamilySource);
template FAMSPEC_API std::optional<Gap> from_name(std::string_view);
template FAMSPEC_API std::optional<Slot> from_name(std::string_view);
template FAMSPEC_API std::optional<ResolutionStatus> from_name(std::string_view);
template FAMSPEC_API std::optional<DiagnosticKind> from_name(std::string_view);
template FAMSPEC_API std::optional<FamilySource> from_name(std::string_view);

std::string_view gap_name(Gap gap) { return name_of(gap); }
std::string_view status_name(ResolutionStatus status) { return name_of(status); }
std::string_view slot_name(Slot slot) { return name_of(slot); }
std::string_view diagnostic_kind_name(DiagnosticKind kind) { return name_of(kind); }
std::string_view family_source_name(FamilySource source) { return name_of(source); }

Gap strict_gap(DiagnosticKind kind) {
    switch (kind) {
        case DiagnosticKind::unregistered_wrapper:
            return Gap::not_registered;
        case DiagnosticKind::ignored_option:
            return Gap::bad_option;
        case DiagnosticKind::family_mismatch:
            return Gap::wrong_family;
        case DiagnosticKind::runtime_only:
            return Gap::runtime_only;
    }
    return Gap::none;
}

}  // namespace famspec
