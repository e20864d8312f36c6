// The reference's coverage by default, famspec's checks as diagnostics; strict turns each
// diagnostic into "not covered" with the same reason.
#include <doctest/doctest.h>

#include "famspec/construction.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/moe_vocabulary.hpp"
#include "famspec/names.hpp"
#include "famspec/parameter.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/resolver.hpp"
#include "famspec/search_path.hpp"
#include "toy_registry.hpp"

using famspec::DiagnosticKind;
using famspec::Gap;
using famspec::ResolutionStatus;
using famspec::Resolver;
using famspec::ResolveRequest;
using famspec::Slot;
using namespace famspec::test;

namespace {

const std::string kAdapter = "hyper_parallel.models.toy.adapter.";

// The default answer, then the strict one: same reason as the first diagnostic, and the gap it maps to.
template <class Resolve>
void check_strict(Resolve resolve, ResolveRequest request, DiagnosticKind kind, const std::string& message, Gap gap) {
    request.strict = false;
    const auto lenient = resolve(request);
    REQUIRE(lenient.diagnostics.size() == 1);
    CHECK(lenient.diagnostics[0].kind == kind);
    CHECK(lenient.diagnostics[0].message == message);
    request.strict = true;
    const auto strict = resolve(request);
    CHECK(strict.status() == ResolutionStatus::not_covered);
    CHECK(std::holds_alternative<famspec::NotCovered>(strict.state));
    CHECK(strict.diagnostics == lenient.diagnostics);
    CHECK(strict.reason() == message);
    CHECK(strict.gap() == gap);
}

}  // namespace

TEST_CASE(
    "an inner wrapper under the adapter convention is covered imports-only, unregistered ones with a diagnostic") {
    const Resolver resolver(toy_registry());
    auto strategy = [&](const ResolveRequest& r) { return resolver.strategy_spec_for(r); };
    const std::string unregistered = kAdapter + "distributed.context_parallel.not_declared_wrapper";
    const ResolveRequest request = famspec::test::request(unregistered, "toy", Slot::inner_wrapper);
    const auto r = resolver.strategy_spec_for(request);
    REQUIRE(r.resolved());
    CHECK(r.resolved()->spec->kind == "cp_attention");
    CHECK_FALSE(r.resolved()->spec->body_template.has_value());
    check_strict(
        strategy, request, DiagnosticKind::unregistered_wrapper,
        "CP wrapper " + unregistered + " is not registered by family 'toy'; covered by the adapter-path convention",
        Gap::not_registered);

    // Registered by another family: covered, the diagnostic names the owner.
    const ResolveRequest other = famspec::test::request(kToyCp, "other_toy", Slot::inner_wrapper);
    check_strict(strategy, other, DiagnosticKind::unregistered_wrapper,
                 "CP wrapper " + std::string(kToyCp) + " is registered by family 'toy', not by 'other_toy'",
                 Gap::not_registered);
    CHECK(resolver.strategy_spec_for(other).diagnostics[0].suggestion == "toy");

    // The family's own registered wrapper: no diagnostic.
    const auto own = resolver.strategy_spec_for(famspec::test::request(kToyCp, "toy", Slot::inner_wrapper));
    CHECK(own.resolved());
    CHECK(own.diagnostics.empty());

    // A path that stops at adapter, or lies outside the convention, stays not covered.
    for (const std::string target : {"hyper_parallel.models.toy.adapter", "sdpa_qkv", "hyper_parallel.x.wrapper"}) {
        CAPTURE(target);
        const auto gap = resolver.strategy_spec_for(famspec::test::request(target, std::nullopt, Slot::inner_wrapper));
        CHECK(gap.status() == ResolutionStatus::not_covered);
        CHECK(gap.gap() == Gap::not_registered);
    }
    // An EP compute factory in the inner_wrapper slot stays wrong_slot (a documented reference defect).
    CHECK(resolver.strategy_spec_for(famspec::test::request(kToyEp, std::nullopt, Slot::inner_wrapper)).gap() ==
          Gap::wrong_slot);
}

TEST_CASE("undeclared static options are ignored with a diagnostic that lists the declared ones") {
    const Resolver resolver(toy_registry());
    auto replacement = [&](const ResolveRequest& r) { return resolver.replacement_spec_for(r); };
    auto strategy = [&](const ResolveRequest& r) { return resolver.strategy_spec_for(r); };

    const auto plain = resolver.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    const ResolveRequest factory = famspec::test::request(
        kToyNorm, "toy", Slot::replace_module, {{"use_fused_ops", famspec::PyLiteral(false)}}, kToyModuleType);
    const auto ignored = resolver.replacement_spec_for(factory);
    REQUIRE(ignored.resolved());
    CHECK(*ignored.resolved()->spec == *plain.resolved()->spec);  // the spec does not change because of the diagnostic
    check_strict(replacement, factory, DiagnosticKind::ignored_option,
                 "option 'use_fused_ops' is ignored: it is not declared; factory " + std::string(kToyNorm) +
                     " declares no options",
                 Gap::bad_option);

    // The runtime's own arguments are ignored the same way.
    ResolveRequest runtime = factory;
    runtime.options = {{"module_fqn", famspec::PyLiteral("x")}};
    check_strict(replacement, runtime, DiagnosticKind::ignored_option,
                 "option 'module_fqn' is ignored: the runtime supplies it; factory " + std::string(kToyNorm) +
                     " declares no options",
                 Gap::bad_option);

    // A near miss names the declared option.
    const ResolveRequest ep =
        famspec::test::request(kToyEp, "toy", Slot::local_compute_fn, {{"use_grouped_gem", famspec::PyLiteral(true)}});
    check_strict(strategy, ep, DiagnosticKind::ignored_option,
                 "option 'use_grouped_gem' is ignored: it is not declared; archetype " + std::string(kToyEp) +
                     " declares: use_grouped_gemm (did you mean `use_grouped_gemm`?)",
                 Gap::bad_option);
    CHECK(resolver.strategy_spec_for(ep).diagnostics[0].suggestion == "use_grouped_gemm");

    // A declared option of the wrong type stays not covered, strict or not.
    const auto mistyped = resolver.strategy_spec_for(famspec::test::request(
        kToyEp, std::nullopt, Slot::local_compute_fn, {{"use_grouped_gemm", famspec::PyLiteral(3)}}));
    CHECK(mistyped.status() == ResolutionStatus::not_covered);
    CHECK(mistyped.gap() == Gap::bad_option);
    CHECK(mistyped.reason() == "option 'use_grouped_gemm' expects bool (default False), got int 3");
}

TEST_CASE("an EP archetype resolves by its target whatever family is named, with family_mismatch") {
    const Resolver resolver(toy_registry());
    auto strategy = [&](const ResolveRequest& r) { return resolver.strategy_spec_for(r); };
    const auto own = resolver.strategy_spec_for(famspec::test::request(kToyEp, "toy", Slot::local_compute_fn));
    REQUIRE(own.resolved());
    CHECK(own.diagnostics.empty());
    for (const std::string family : {"other_toy", "unregistered_model"}) {
        CAPTURE(family);
        const ResolveRequest request = famspec::test::request(kToyEp, family, Slot::local_compute_fn);
        const auto r = resolver.strategy_spec_for(request);
        REQUIRE(r.resolved());
        CHECK(*r.resolved()->spec == *own.resolved()->spec);  // the same spec: an archetype resolves by structure
        check_strict(strategy, request, DiagnosticKind::family_mismatch,
                     "the MoE archetype " + std::string(kToyEp) + " is registered by family 'toy', not by '" + family +
                         "'" + (family == "unregistered_model" ? " (an unknown family)" : ""),
                     Gap::wrong_family);
    }
    // external_state_classes_for follows the default answer.
    const std::vector<famspec::Injection> injections = {{kToyEp, {}}};
    CHECK(resolver.external_state_classes_for("unregistered_model", injections) == std::vector<std::string>{"ToyMoE"});
}

TEST_CASE("runtime-only entries are native by default, and not covered under strict") {
    const Resolver resolver(toy_registry());
    auto replacement = [&](const ResolveRequest& r) { return resolver.replacement_spec_for(r); };
    auto strategy = [&](const ResolveRequest& r) { return resolver.strategy_spec_for(r); };
    const ResolveRequest factory = famspec::test::request(kAdapter + "replacements.replace_toy_runtime", "toy",
                                                          Slot::replace_module, {}, kToyModuleType);
    const auto r = resolver.replacement_spec_for(factory);
    CHECK(r.status() == ResolutionStatus::native);
    const auto* native = std::get_if<famspec::Native>(&r.state);
    REQUIRE(native != nullptr);
    CHECK(native->reason == "runtime-only factory: builds through ToyNorm.from_module");
    CHECK(r.resolved() == nullptr);
    CHECK(r.gap() == std::nullopt);
    check_strict(replacement, factory, DiagnosticKind::runtime_only,
                 "runtime-only factory: builds through ToyNorm.from_module", Gap::runtime_only);

    const ResolveRequest compute = famspec::test::request(
        kAdapter + "distributed.expert_parallel.toy_engram_compute_fn", "toy", Slot::local_compute_fn);
    CHECK(resolver.strategy_spec_for(compute).status() == ResolutionStatus::native);
    check_strict(
        strategy, compute, DiagnosticKind::runtime_only,
        "runtime-only compute function: " + compute.target + " belongs to family 'toy' and matches no MoE archetype",
        Gap::runtime_only);
}

TEST_CASE("the summary's spec maps do not change because of diagnostics; entries show them") {
    const Resolver resolver(toy_registry());
    auto summary_of = [&](const std::string& option_line) {
        const auto parsed =
            famspec::parse_plan_text(std::string("model_type: toy\nplan_overrides:\n") +
                                         "  - match: '*.norm'\n    module_type: " + kToyModuleType +
                                         "\n    replace_module:\n      _target_: " + kToyNorm + "\n" + option_line,
                                     "plan.yaml");
        REQUIRE(parsed.has_value());
        return resolver.declaration_summary(std::nullopt, *parsed);
    };
    const std::string plain = summary_of("").canonical_json();
    const auto with = summary_of("      use_fused_ops: false\n");
    REQUIRE(with.entries[0].diagnostics.size() == 1);
    const std::string text = with.canonical_json();
    const auto maps = [](const std::string& json) { return json.substr(json.find("\"replacement_specs\"")); };
    CHECK(maps(text) == maps(plain));
    CHECK(text.find(R"("diagnostics":[{"kind":"ignored_option","message":"option 'use_fused_ops' is ignored)") !=
          std::string::npos);
    CHECK(plain.find("diagnostics") == std::string::npos);
}

TEST_CASE("every enum has one name table, read both ways") {
    CHECK(famspec::name_of(DiagnosticKind::family_mismatch) == "family_mismatch");
    CHECK(famspec::from_name<DiagnosticKind>("unregistered_wrapper") == DiagnosticKind::unregistered_wrapper);
    CHECK(famspec::name_of(ResolutionStatus::native) == "native");
    CHECK(famspec::from_name<Slot>("inner_wrapper") == Slot::inner_wrapper);
    CHECK_FALSE(famspec::from_name<Slot>("inner").has_value());
    CHECK(famspec::from_name<Gap>(famspec::name_of(Gap::bad_option)) == Gap::bad_option);
    CHECK(famspec::name_of(famspec::FamilySource::model_target) == "model._target_");
}

// Every name of an enum reads back to the value it names, and no two values share one.
template <class Enum>
void check_round_trip(const std::vector<std::string_view>& expected) {
    CHECK(famspec::all_names<Enum>() == expected);
    for (const std::string_view name : expected) {
        const auto value = famspec::from_name<Enum>(name);
        REQUIRE(value.has_value());
        CHECK(famspec::name_of(*value) == name);
    }
}

TEST_CASE("the vocabularies read both ways, in the words the CLI, the JSON and the plugins use") {
    check_round_trip<famspec::PluginStage>({"find", "trust", "manifest", "compatibility", "register", "validate"});
    check_round_trip<famspec::LogLevel>({"debug", "info", "warning", "error"});
    check_round_trip<famspec::ParameterKind>({"positional", "positional_only", "keyword_only"});
    CHECK(famspec::name_of(famspec::ParameterKind::positional_or_keyword) == "positional");
    check_round_trip<famspec::ArgumentBinding>({"parameter", "literal", "interface"});
    check_round_trip<famspec::ConstructionMode>({"name", "wrap_source"});
    check_round_trip<famspec::MoeRouter>({"softmax_topk", "sigmoid_group", "topk_router_module"});
    check_round_trip<famspec::SharedExperts>({"none", "gated", "additive"});
    check_round_trip<famspec::ExpertStorage>({"module_list", "batched_parameters"});
    check_round_trip<famspec::SearchPath::Origin>({"--plugin-path", "FAMSPEC_PLUGIN_PATH", "default"});
    CHECK(famspec::name_of(famspec::MoeRouter::topk_router_module) == "topk_router_module");
    CHECK_FALSE(famspec::from_name<famspec::SharedExperts>("summed").has_value());
    CHECK(famspec::name_of(famspec::PluginStage::register_) == "register");
    CHECK(famspec::from_name<famspec::PluginStage>("validate") == famspec::PluginStage::validate);
}

TEST_CASE("a missing module_type and the module_type \"\\x01\" do not share a cache entry") {
    const Resolver resolver(toy_registry());
    const auto odd = resolver.replacement_spec_for(kToyNorm, "toy", std::string("\x01"));
    REQUIRE(odd.resolved());
    CHECK(odd.resolved()->spec->old_ctor == "\x01");
    const auto missing = resolver.replacement_spec_for(kToyNorm, "toy", std::nullopt);
    CHECK(missing.status() == ResolutionStatus::not_covered);
    CHECK(missing.gap() == Gap::missing_module_type);
    CHECK(missing.reason().find("--module-type") != std::string::npos);
}
