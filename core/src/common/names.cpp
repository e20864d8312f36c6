#include "famspec/names.hpp"

#include <array>
#include <utility>

#include "famspec/construction.hpp"
#include "famspec/family_source.hpp"
#include "famspec/log.hpp"
#include "famspec/moe_vocabulary.hpp"
#include "famspec/parameter.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/resolution.hpp"
#include "famspec/search_origin.hpp"

namespace famspec {
namespace {

template <class Enum, std::size_t N>
using Table = std::array<std::pair<Enum, std::string_view>, N>;

constexpr Table<Gap, 10> kGaps = {{{Gap::no_target, "no_target"},
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

constexpr Table<DiagnosticKind, 5> kDiagnostics = {{{DiagnosticKind::unregistered_wrapper, "unregistered_wrapper"},
                                                    {DiagnosticKind::ignored_option, "ignored_option"},
                                                    {DiagnosticKind::family_mismatch, "family_mismatch"},
                                                    {DiagnosticKind::runtime_only, "runtime_only"},
                                                    {DiagnosticKind::disallowed_value, "disallowed_value"}}};

constexpr Table<FamilySource, 5> kFamilySources = {{{FamilySource::caller, "--model-type"},
                                                    {FamilySource::model_type, "model_type"},
                                                    {FamilySource::architecture, "architecture"},
                                                    {FamilySource::model_target, "model._target_"},
                                                    {FamilySource::per_target, "per-target"}}};

// In stage order.
constexpr Table<PluginStage, 6> kStages = {{{PluginStage::find, "find"},
                                            {PluginStage::trust, "trust"},
                                            {PluginStage::manifest, "manifest"},
                                            {PluginStage::compatibility, "compatibility"},
                                            {PluginStage::register_, "register"},
                                            {PluginStage::validate, "validate"}}};

constexpr Table<LogLevel, 4> kLogLevels = {
    {{LogLevel::debug, "debug"}, {LogLevel::info, "info"}, {LogLevel::warning, "warning"}, {LogLevel::error, "error"}}};

// The ordinary kind, positional_or_keyword, prints as "positional".
constexpr Table<ParameterKind, 3> kParameterKinds = {{{ParameterKind::positional_or_keyword, "positional"},
                                                      {ParameterKind::positional_only, "positional_only"},
                                                      {ParameterKind::keyword_only, "keyword_only"}}};

constexpr Table<ArgumentBinding, 3> kBindings = {{{ArgumentBinding::parameter, "parameter"},
                                                  {ArgumentBinding::literal, "literal"},
                                                  {ArgumentBinding::interface, "interface"}}};

constexpr Table<ConstructionMode, 2> kConstructionModes = {
    {{ConstructionMode::name, "name"}, {ConstructionMode::wrap_source, "wrap_source"}}};

constexpr Table<MoeRouter, 3> kRouters = {{{MoeRouter::softmax_topk, "softmax_topk"},
                                           {MoeRouter::sigmoid_group, "sigmoid_group"},
                                           {MoeRouter::topk_router_module, "topk_router_module"}}};

constexpr Table<SharedExperts, 3> kSharedExperts = {
    {{SharedExperts::none, "none"}, {SharedExperts::gated, "gated"}, {SharedExperts::additive, "additive"}}};

constexpr Table<ExpertStorage, 2> kExpertStorages = {
    {{ExpertStorage::module_list, "module_list"}, {ExpertStorage::batched_parameters, "batched_parameters"}}};

constexpr Table<ArchetypeKind, 1> kArchetypeKinds = {{{ArchetypeKind::moe_ep_routed, "moe_ep_routed"}}};

// Where the plugin search path came from, as `famspec list` names it.
constexpr Table<SearchOrigin, 3> kOrigins = {{{SearchOrigin::flag, "--plugin-path"},
                                              {SearchOrigin::environment, kPluginPathVariable},
                                              {SearchOrigin::default_directory, "default"}}};

// The table of an enum, chosen by overload on a value of it.
constexpr const auto& table(Gap) { return kGaps; }
constexpr const auto& table(Slot) { return kSlots; }
constexpr const auto& table(ResolutionStatus) { return kStatuses; }
constexpr const auto& table(DiagnosticKind) { return kDiagnostics; }
constexpr const auto& table(FamilySource) { return kFamilySources; }
constexpr const auto& table(PluginStage) { return kStages; }
constexpr const auto& table(LogLevel) { return kLogLevels; }
constexpr const auto& table(ParameterKind) { return kParameterKinds; }
constexpr const auto& table(ArgumentBinding) { return kBindings; }
constexpr const auto& table(ConstructionMode) { return kConstructionModes; }
constexpr const auto& table(MoeRouter) { return kRouters; }
constexpr const auto& table(SharedExperts) { return kSharedExperts; }
constexpr const auto& table(ExpertStorage) { return kExpertStorages; }
constexpr const auto& table(ArchetypeKind) { return kArchetypeKinds; }
constexpr const auto& table(SearchOrigin) { return kOrigins; }

}  // namespace

template <class Enum>
std::string_view name_of(Enum value) {
    for (const auto& [e, name] : table(Enum{})) {
        if (e == value) return name;
    }
    return table(Enum{}).front().second;
}

template <class Enum>
std::optional<Enum> from_name(std::string_view name) {
    for (const auto& [e, n] : table(Enum{})) {
        if (n == name) return e;
    }
    return std::nullopt;
}

template <class Enum>
std::vector<std::string_view> all_names() {
    std::vector<std::string_view> names;
    for (const auto& entry : table(Enum{})) names.push_back(entry.second);
    return names;
}

template FAMSPEC_API std::string_view name_of(Gap);
template FAMSPEC_API std::string_view name_of(Slot);
template FAMSPEC_API std::string_view name_of(ResolutionStatus);
template FAMSPEC_API std::string_view name_of(DiagnosticKind);
template FAMSPEC_API std::string_view name_of(FamilySource);
template FAMSPEC_API std::string_view name_of(PluginStage);
template FAMSPEC_API std::string_view name_of(LogLevel);
template FAMSPEC_API std::string_view name_of(ParameterKind);
template FAMSPEC_API std::string_view name_of(ArgumentBinding);
template FAMSPEC_API std::string_view name_of(ConstructionMode);
template FAMSPEC_API std::optional<Gap> from_name(std::string_view);
template FAMSPEC_API std::optional<Slot> from_name(std::string_view);
template FAMSPEC_API std::optional<ResolutionStatus> from_name(std::string_view);
template FAMSPEC_API std::optional<DiagnosticKind> from_name(std::string_view);
template FAMSPEC_API std::optional<FamilySource> from_name(std::string_view);
template FAMSPEC_API std::optional<PluginStage> from_name(std::string_view);
template FAMSPEC_API std::optional<LogLevel> from_name(std::string_view);
template FAMSPEC_API std::optional<ParameterKind> from_name(std::string_view);
template FAMSPEC_API std::optional<ArgumentBinding> from_name(std::string_view);
template FAMSPEC_API std::optional<ConstructionMode> from_name(std::string_view);
template FAMSPEC_API std::string_view name_of(MoeRouter);
template FAMSPEC_API std::string_view name_of(SharedExperts);
template FAMSPEC_API std::string_view name_of(ExpertStorage);
template FAMSPEC_API std::string_view name_of(ArchetypeKind);
template FAMSPEC_API std::string_view name_of(SearchOrigin);
template FAMSPEC_API std::optional<MoeRouter> from_name(std::string_view);
template FAMSPEC_API std::optional<SharedExperts> from_name(std::string_view);
template FAMSPEC_API std::optional<ExpertStorage> from_name(std::string_view);
template FAMSPEC_API std::optional<SearchOrigin> from_name(std::string_view);
template FAMSPEC_API std::vector<std::string_view> all_names<Gap>();
template FAMSPEC_API std::vector<std::string_view> all_names<Slot>();
template FAMSPEC_API std::vector<std::string_view> all_names<ResolutionStatus>();
template FAMSPEC_API std::vector<std::string_view> all_names<DiagnosticKind>();
template FAMSPEC_API std::vector<std::string_view> all_names<FamilySource>();
template FAMSPEC_API std::vector<std::string_view> all_names<PluginStage>();
template FAMSPEC_API std::vector<std::string_view> all_names<LogLevel>();
template FAMSPEC_API std::vector<std::string_view> all_names<ParameterKind>();
template FAMSPEC_API std::vector<std::string_view> all_names<ArgumentBinding>();
template FAMSPEC_API std::vector<std::string_view> all_names<ConstructionMode>();
template FAMSPEC_API std::vector<std::string_view> all_names<MoeRouter>();
template FAMSPEC_API std::vector<std::string_view> all_names<SharedExperts>();
template FAMSPEC_API std::vector<std::string_view> all_names<ExpertStorage>();
template FAMSPEC_API std::vector<std::string_view> all_names<SearchOrigin>();

}  // namespace famspec
