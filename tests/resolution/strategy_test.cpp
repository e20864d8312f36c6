#include <doctest/doctest.h>

#include "famspec/explanation.hpp"
#include "famspec/names.hpp"
#include "famspec/python_text.hpp"
#include "famspec/resolver.hpp"
#include "famspec/strategy_check.hpp"
#include "toy_registry.hpp"

using famspec::ResolutionStatus;
using famspec::Resolver;
using famspec::Slot;
using famspec::StrategySpec;
using namespace famspec::test;

TEST_CASE("an archetype's compute factory gives the inline EP spec") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.strategy_spec_for(kToyEp, std::nullopt, Slot::local_compute_fn);
    REQUIRE(r.resolved());
    const StrategySpec& spec = *r.resolved()->spec;
    CHECK(spec.kind == "moe_ep_routed");
    CHECK(spec.target_class == "ToyMoE");
    CHECK(spec.method_name == "forward");
    CHECK(spec.snippets.empty());
    CHECK(spec.strip_boundary_subpatterns == std::vector<std::string>{"experts.*"});
    REQUIRE(spec.imports.size() == 1);
    CHECK(spec.imports[0].module == "hyper_parallel.distributed.expert_parallel.experts");
    CHECK(spec.imports[0].names == std::vector<std::string>{"moe_ep_forward"});
    REQUIRE(spec.body_template.has_value());
    CHECK(*spec.body_template ==
          famspec::moe_ep_forward_body(famspec::MoeRouter::softmax_topk, famspec::SharedExperts::gated));
    CHECK(r.explanation->channel == "archetype");
    // The same spec, whatever family spelling is given; a known option does not change it.
    for (const char* spelling : {"toy", "ToyForCausalLM", "other_toy"}) {
        CHECK(*resolver.strategy_spec_for(kToyEp, std::string(spelling), Slot::local_compute_fn).resolved()->spec ==
              spec);
    }
    CHECK(*resolver.strategy_spec_for(kToyEp, std::nullopt, Slot::local_compute_fn, {{"use_grouped_gemm", true}})
               .resolved()
               ->spec == spec);
}

TEST_CASE("the EP body is the fixed shell with the router and shared keys as Python literals") {
    CHECK(famspec::moe_ep_forward_body(famspec::MoeRouter::sigmoid_group, famspec::SharedExperts::additive) ==
          "\"\"\"Expert-parallel routed MoE forward: dispatch, local experts, combine.\"\"\"\n"
          "if not self.ep_enable:\n"
          "    return self._forward_impl(hidden_states)\n"
          "\n"
          "return moe_ep_forward(\n"
          "    self,\n"
          "    hidden_states,\n"
          "    router_kind='sigmoid_group',\n"
          "    shared='additive',\n"
          "    ep_group=self._hp_ep_group,\n"
          ")\n");
}

TEST_CASE("a registered CP wrapper in its slot gives the imports-only CP spec") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.strategy_spec_for(kToyCp, std::nullopt, Slot::inner_wrapper);
    REQUIRE(r.resolved());
    CHECK(r.resolved()->spec->kind == "cp_attention");
    CHECK(r.resolved()->spec->imports.empty());
    CHECK_FALSE(r.resolved()->spec->target_class.has_value());
    CHECK_FALSE(r.resolved()->spec->body_template.has_value());
    CHECK(r.resolved()->spec->method_name == "forward");
    CHECK(*resolver.strategy_spec_for(kToyCp, "ToyForCausalLM", Slot::inner_wrapper).resolved()->spec ==
          *r.resolved()->spec);
    CHECK(*resolver.strategy_spec_for(kToyCp, "toy", Slot::inner_wrapper, {{"use_mask", true}}).resolved()->spec ==
          *r.resolved()->spec);
}

TEST_CASE("strategies fail closed like replacements, each with its reason") {
    const Resolver resolver(toy_registry());
    auto reason = [&](const std::string& target, const std::optional<std::string>& family, Slot slot,
                      const famspec::Options& options = {}) {
        const auto r = resolver.strategy_spec_for(target, family, slot, options);
        CHECK(r.status() == ResolutionStatus::not_covered);
        CHECK(std::holds_alternative<famspec::NotCovered>(r.state));
        return r.reason();
    };
    CHECK(reason(kToyCp, std::nullopt, Slot::local_compute_fn) ==
          "wrong slot: " + std::string(kToyCp) + " is a CP wrapper of family 'toy'; it belongs in inner_wrapper");
    CHECK(reason(kToyEp, std::nullopt, Slot::inner_wrapper) ==
          "wrong slot: " + std::string(kToyEp) +
              " is an MoE compute factory of family 'toy'; it belongs in local_compute_fn");
    // A replacement factory is named the same way, whatever slot it is put in.
    CHECK(reason(kToyNorm, std::nullopt, Slot::local_compute_fn) ==
          "wrong slot: " + std::string(kToyNorm) +
              " is a replacement factory of family 'toy'; it belongs in "
              "replace_module");
    CHECK(resolver.strategy_spec_for(kToyNorm, "toy", Slot::local_compute_fn).gap() == famspec::Gap::wrong_slot);
    // A near miss of the compute factory is suggested.
    const std::string misspelt = std::string(kToyEp).substr(0, std::string(kToyEp).size() - 2) + "fm";
    CHECK(reason(misspelt, "toy", Slot::local_compute_fn) ==
          misspelt + " is not an MoE compute factory registered by family 'toy' (did you mean `" + std::string(kToyEp) +
              "`?)");
    // An inner_wrapper outside the adapter convention, and one that stops at adapter.
    CHECK(reason("sdpa_qkv", std::nullopt, Slot::inner_wrapper) ==
          "sdpa_qkv is not a CP wrapper registered by any family, nor under "
          "hyper_parallel.models.<family>.adapter.<name>");
    CHECK(reason("hyper_parallel.models.toy.adapter", std::nullopt, Slot::inner_wrapper) ==
          "hyper_parallel.models.toy.adapter is not a CP wrapper registered by family 'toy', nor under "
          "hyper_parallel.models.<family>.adapter.<name>");
    CHECK(reason("sdpa_qkv", std::nullopt, Slot::local_compute_fn) ==
          "sdpa_qkv is not an MoE compute factory registered by any family");
    CHECK(reason(kToyEp, std::nullopt, Slot::local_compute_fn, {{"use_grouped_gemm", 1.5}}) ==
          "option 'use_grouped_gemm' expects bool (default False), got float 1.5");
    CHECK(reason(kToyCp, std::nullopt, Slot::inner_wrapper, {{"use_mask", 4}}) ==
          "option 'use_mask' expects bool (default False), got int 4");
    CHECK(reason(kToyEp, std::nullopt, Slot::replace_module) == "replace_module is not a strategy slot");
    CHECK(reason("", std::nullopt, Slot::inner_wrapper) == "no target path");
}

TEST_CASE("external-state classes are the classes whose forward an inline body replaces") {
    const Resolver resolver(toy_registry());
    const std::vector<famspec::Injection> injections = {
        {kToyEp, {}}, {std::nullopt, {}}, {"sdpa_qkv", {}}, {kToyEp, {{"use_grouped_gemm", true}}}};
    CHECK(resolver.external_state_classes_for("toy", injections) == std::vector<std::string>{"ToyMoE"});
    CHECK(resolver.external_state_classes_for("toy", {}).empty());
    // A rendered component alone is not external state.
    CHECK(resolver.external_state_classes_for("toy", std::vector<famspec::Injection>{{kToyCp, {}}}).empty());
}

TEST_CASE("the rendered component of a family is the one its factories hand an interface to") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.interface_component_class("ToyForCausalLM");
    REQUIRE(r.resolved());
    CHECK(*r.resolved()->spec == "ToyAttention");
    CHECK(resolver.interface_component_class("other_toy").reason() ==
          "family 'other_toy' hands no interface to any component");
    CHECK(resolver.interface_component_class("unregistered_model").status() == ResolutionStatus::not_covered);
}

TEST_CASE("a StrategySpec keeps the reference's invariants") {
    StrategySpec spec;
    spec.kind = "moe_ep_routed";
    CHECK_FALSE(famspec::validation_error(spec).has_value());
    spec.target_class = "Block";
    CHECK(famspec::validation_error(spec) == "StrategySpec: target_class and body_template must be provided together");
    spec.body_template = "   ";
    CHECK(famspec::validation_error(spec) == "StrategySpec: target_class and body_template must be nonempty");
    spec.body_template = "return 1";
    spec.method_name = "not an identifier";
    CHECK(famspec::validation_error(spec) ==
          "StrategySpec: method_name 'not an identifier' is not a Python identifier");
    spec.method_name = "compute";
    CHECK_FALSE(famspec::validation_error(spec).has_value());
}

TEST_CASE("every gap carries its kind, so callers need not parse the reason") {
    const Resolver resolver(toy_registry());
    using famspec::Gap;
    const std::string replacements = "hyper_parallel.models.toy.adapter.replacements.";
    auto replacement_gap = [&](const std::string& target, const std::optional<std::string>& family,
                               const std::optional<std::string>& module_type, const famspec::Options& options = {}) {
        return resolver.replacement_spec_for(target, family, module_type, options).gap();
    };
    auto strategy_gap = [&](const std::string& target, const std::optional<std::string>& family, Slot slot) {
        return resolver.strategy_spec_for(target, family, slot).gap();
    };
    CHECK(replacement_gap(kToyNorm, "toy", kToyModuleType) == std::nullopt);
    CHECK(replacement_gap("", "toy", kToyModuleType) == Gap::no_target);
    CHECK(replacement_gap("my.helpers.f", "toy", kToyModuleType) == Gap::no_channel);
    CHECK(replacement_gap(kToyNorm, "unregistered_model", kToyModuleType) == Gap::unknown_family);
    CHECK(replacement_gap(replacements + "nothing", "toy", kToyModuleType) == Gap::not_registered);
    const auto native = resolver.replacement_spec_for(replacements + "replace_toy_runtime", "toy", kToyModuleType);
    CHECK(native.status() == ResolutionStatus::native);
    CHECK(native.gap() == std::nullopt);
    CHECK(replacement_gap(kToyNorm, "toy", std::nullopt) == Gap::missing_module_type);
    CHECK(replacement_gap(replacements + "replace_toy_no_fqn", "toy", kToyModuleType) == Gap::component_mismatch);
    CHECK(replacement_gap(replacements + "replace_toy_experts", "toy", kToyModuleType, {{"use_fused_ops", 1}}) ==
          Gap::bad_option);
    CHECK(strategy_gap(kToyCp, "toy", Slot::local_compute_fn) == Gap::wrong_slot);
    // The gaps that only strict resolution gives.
    auto strict_gap = [&](const std::string& target, const std::string& family, Slot slot) {
        return resolver.strategy_spec_for(famspec::test::request(target, family, slot, {}, std::nullopt, true)).gap();
    };
    CHECK(strict_gap(kToyEp, "other_toy", Slot::local_compute_fn) == Gap::wrong_family);
    CHECK(strict_gap(kToyCp, "other_toy", Slot::inner_wrapper) == Gap::not_registered);
    CHECK(strict_gap("hyper_parallel.models.toy.adapter.distributed.expert_parallel.toy_engram_compute_fn", "toy",
                     Slot::local_compute_fn) == Gap::runtime_only);
    CHECK(famspec::name_of(Gap::runtime_only) == "runtime_only");
    CHECK(famspec::name_of(Gap::component_mismatch) == "component_mismatch");
}
