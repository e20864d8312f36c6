#include <doctest/doctest.h>

#include "famspec/component_renderer.hpp"
#include "famspec/explanation.hpp"
#include "famspec/family_dependence.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"
#include "toy_registry.hpp"

using famspec::ResolutionStatus;
using famspec::Resolver;
using namespace famspec::test;

namespace {

// Stands in for the block renderer: records what it was asked and answers with fixed text.
class RecordingRenderer final : public famspec::ComponentRenderer {
public:
    famspec::RenderResult render(const famspec::Component& component, std::string_view interface_function,
                                 std::span<const famspec::SourceBlock> interface_blocks) const override {
        calls.push_back(std::string(component.name) + "<-" + std::string(interface_function) + "/" +
                        std::to_string(interface_blocks.size()));
        if (fail) {
            return famspec::unexpected(
                std::string("name 'missing' is needed by ToyAttention but neither defined nor imported"));
        }
        return famspec::RenderedComponent{{"import torch", "import torch.nn as nn"}, "class ToyAttention:\n    pass\n"};
    }
    mutable std::vector<std::string> calls;
    bool fail = false;
};

const std::string kDirect = "hyper_parallel.components.toy.norms.ToyNorm";

}  // namespace

TEST_CASE("a wrapping factory gives the reference's wrap spec") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.replacement_spec_for(kToyNorm, std::nullopt, kToyModuleType);
    REQUIRE(r.resolved());
    const auto& spec = *r.resolved()->spec;
    CHECK(spec.old_ctor == "ToyRMSNorm");
    CHECK(spec.new_ctor == "ToyNorm");
    CHECK(spec.mode == famspec::ConstructionMode::wrap_source);
    CHECK(spec.keyword_args == std::vector<std::string>{"module_fqn=''", "context=None"});
    CHECK_FALSE(spec.remove_class);
    REQUIRE(spec.imports.size() == 1);
    CHECK(spec.imports[0].module == "hyper_parallel.components.toy");
    CHECK(spec.imports[0].names == std::vector<std::string>{"ToyNorm"});
    CHECK_FALSE(spec.imports[0].raw.has_value());
    CHECK(spec.snippets.empty());
    CHECK(spec.replacement_note == "ToyNorm wraps ToyRMSNorm; the original class is kept as the wrapper input.");
    CHECK(r.explanation->channel == "factory");
    CHECK(r.explanation->family == "toy");
    CHECK(r.explanation->plugin == "toy");
}

TEST_CASE("a name-swap factory removes the class and says so") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.replacement_spec_for(
        "hyper_parallel.models.toy.adapter.replacements.replace_toy_norm_by_name", "toy", kToyModuleType);
    REQUIRE(r.resolved());
    CHECK(r.resolved()->spec->mode == famspec::ConstructionMode::name);
    CHECK(r.resolved()->spec->remove_class);
    CHECK(r.resolved()->spec->keyword_args.empty());
    CHECK(r.resolved()->spec->replacement_note == "ToyNorm replaces ToyRMSNorm.");
}

TEST_CASE("every spelling of the family and the inferred family give the same answer") {
    const Resolver resolver(toy_registry());
    const auto inferred = resolver.replacement_spec_for(kToyNorm, std::nullopt, kToyModuleType);
    REQUIRE(inferred.resolved());
    CHECK_FALSE(inferred.explanation->cache_hit);
    for (const char* spelling : {"toy", "ToyForCausalLM", "TOY", "toy_text", "toydir"}) {
        INFO(spelling);
        const auto r = resolver.replacement_spec_for(kToyNorm, std::string(spelling), kToyModuleType);
        REQUIRE(r.resolved());
        CHECK(*r.resolved()->spec == *inferred.resolved()->spec);
        CHECK(r.explanation->family == "toy");
        CHECK_FALSE(r.explanation->cache_hit);  // the cache keys the request as asked
        CHECK(resolver.replacement_spec_for(kToyNorm, std::string(spelling), kToyModuleType).resolved()->spec.get() ==
              r.resolved()->spec.get());
    }
    // A directory alias in the path infers the same family.
    const auto by_dir = resolver.replacement_spec_for(
        "hyper_parallel.models.toydir.adapter.replacements.replace_toy_dir_norm", std::nullopt, kToyModuleType);
    REQUIRE(by_dir.resolved());
    CHECK(by_dir.explanation->family == "toy");
}

TEST_CASE("a family that declares no provider module answers each factory under its own target only") {
    const Resolver resolver(toy_registry());
    const auto elsewhere = resolver.replacement_spec_for(
        "hyper_parallel.models.toydir.adapter.replacements.replace_toy_norm", std::nullopt, kToyModuleType);
    CHECK(elsewhere.status() == ResolutionStatus::not_covered);
    CHECK(elsewhere.gap() == famspec::Gap::not_registered);
    // It lists the modules its factories live in.
    const auto* toy = resolver.registry().find_family("toy");
    REQUIRE(toy != nullptr);
    CHECK(toy->provider_modules == std::vector<std::string>{"hyper_parallel.models.toy.adapter.replacements",
                                                            "hyper_parallel.models.toydir.adapter.replacements"});
}

TEST_CASE("an explicit unknown family fails closed instead of falling back to the path") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.replacement_spec_for(kToyNorm, std::string("unregistered_model"), kToyModuleType);
    CHECK(r.status() == ResolutionStatus::not_covered);
    CHECK(std::holds_alternative<famspec::NotCovered>(r.state));
    CHECK(r.reason() == "unknown family 'unregistered_model': no loaded plugin registers it");
    const auto inferred_unknown = resolver.replacement_spec_for("hyper_parallel.models.nobody.adapter.replacements.f",
                                                                std::nullopt, kToyModuleType);
    CHECK(inferred_unknown.reason() ==
          "unknown family 'nobody' (inferred from the target path): no loaded plugin registers it");
}

TEST_CASE("every not-covered replacement says why") {
    const Resolver resolver(toy_registry());
    auto reason = [&](const std::string& target, const std::optional<std::string>& module_type,
                      const famspec::Options& options = {}) {
        const auto r = resolver.replacement_spec_for(target, "toy", module_type, options);
        CHECK(r.status() == ResolutionStatus::not_covered);
        CHECK(std::holds_alternative<famspec::NotCovered>(r.state));
        return r.reason();
    };
    const std::string replacements = "hyper_parallel.models.toy.adapter.replacements.";
    CHECK(reason(replacements + "not_there", kToyModuleType) ==
          replacements + "not_there is not a replacement factory registered by family 'toy'");
    // A near miss of a name the family registers, in any slot, is suggested by its last segment.
    CHECK(reason(replacements + "replace_toy_nrom", kToyModuleType) ==
          replacements + "replace_toy_nrom is not a replacement factory registered by family 'toy' (did you mean `" +
              std::string(kToyNorm) + "`?)");
    CHECK(reason(kToyNorm, std::nullopt) ==
          "missing module_type: without the matched source class there is no call site to rewrite (give it as the "
          "entry's module_type, or --module-type)");
    CHECK(reason(replacements + "replace_toy_no_fqn", kToyModuleType) ==
          "component ToyNoFqn lacks parameter 'module_fqn' that factory " + replacements + "replace_toy_no_fqn passes");
    CHECK(reason(replacements + "replace_toy_attention_default", kToyModuleType) ==
          "the default of ToyAttention.attention_interface (default_attention_kernel) is not a literal and cannot be "
          "rendered into generated source");
    CHECK(reason(replacements + "replace_toy_experts", kToyModuleType, {{"use_fused_ops", "no"}}) ==
          "option 'use_fused_ops' expects bool (default True), got str 'no'");
    CHECK(reason("my.project.helpers.make_norm", kToyModuleType) ==
          "target my.project.helpers.make_norm is neither a family factory (hyper_parallel.models.<family>.adapter.…) "
          "nor a generic component (hyper_parallel.components.…)");
    CHECK(reason("", kToyModuleType) == "no target path");
    // A target of another family is not this family's, and the message names the owner.
    const auto other = resolver.replacement_spec_for(kToyNorm, "other_toy", kToyModuleType);
    CHECK(other.gap() == famspec::Gap::wrong_family);
    CHECK(other.reason() ==
          "wrong family: " + std::string(kToyNorm) + " is a replacement factory of family 'toy', not of 'other_toy'");
    // A strategy target in replace_module names the slot it belongs in.
    const auto misplaced = resolver.replacement_spec_for(kToyEp, "toy", kToyModuleType);
    CHECK(misplaced.gap() == famspec::Gap::wrong_slot);
    CHECK(misplaced.reason() == "wrong slot: " + std::string(kToyEp) +
                                    " is an MoE compute factory of family 'toy'; it belongs in local_compute_fn");
}

TEST_CASE("static options render in place of the default, and change the spec") {
    const Resolver resolver(toy_registry());
    const std::string target = "hyper_parallel.models.toy.adapter.replacements.replace_toy_experts";
    const auto plain = resolver.replacement_spec_for(target, "toy", kToyModuleType);
    REQUIRE(plain.resolved());
    CHECK(plain.resolved()->spec->keyword_args ==
          std::vector<std::string>{"module_fqn=''", "context=None", "use_fused_ops=True"});
    const auto off = resolver.replacement_spec_for(target, "toy", kToyModuleType, {{"use_fused_ops", false}});
    REQUIRE(off.resolved());
    CHECK(off.resolved()->spec->keyword_args ==
          std::vector<std::string>{"module_fqn=''", "context=None", "use_fused_ops=False"});
    CHECK(off.resolved()->spec.get() != plain.resolved()->spec.get());
    // A literal passed by the factory renders as written.
    const auto literal = resolver.replacement_spec_for(
        "hyper_parallel.models.toy.adapter.replacements.replace_toy_literal", "toy", kToyModuleType);
    REQUIRE(literal.resolved());
    CHECK(literal.resolved()->spec->keyword_args == std::vector<std::string>{"eps=1e-3"});
}

TEST_CASE("a factory that hands over an interface renders its component, without importing it") {
    RecordingRenderer renderer;
    famspec::ResolverOptions options;
    options.renderer = &renderer;
    const Resolver resolver(toy_registry(), options);
    const std::string target = "hyper_parallel.models.toy.adapter.replacements.replace_toy_attention";
    const auto r = resolver.replacement_spec_for(target, std::nullopt, "toy.modeling_toy.ToyAttentionLayer");
    REQUIRE(r.resolved());
    CHECK(renderer.calls == std::vector<std::string>{"ToyAttention<-toy_kernel/1"});
    CHECK(r.resolved()->spec->keyword_args ==
          std::vector<std::string>{"module_fqn=''", "context=None", "attention_interface=toy_kernel"});
    REQUIRE(r.resolved()->spec->snippets.size() == 1);
    CHECK(r.resolved()->spec->snippets[0].text == "class ToyAttention:\n    pass\n");
    REQUIRE(r.resolved()->spec->imports.size() == 2);
    for (const auto& patch : r.resolved()->spec->imports) {
        CHECK(patch.module.empty());
        CHECK(patch.names.empty());
        REQUIRE(patch.raw.has_value());
    }
    CHECK(*r.resolved()->spec->imports[0].raw == "import torch");
    CHECK(*r.resolved()->spec->imports[1].raw == "import torch.nn as nn");
    // Cached: the same request does not ask the renderer again; another spelling of it does.
    CHECK(resolver.replacement_spec_for(target, std::nullopt, "toy.modeling_toy.ToyAttentionLayer")
              .resolved()
              ->spec.get() == r.resolved()->spec.get());
    CHECK(renderer.calls.size() == 1);
    CHECK(*resolver.replacement_spec_for(target, "toy", "toy.modeling_toy.ToyAttentionLayer").resolved()->spec ==
          *r.resolved()->spec);
    CHECK(renderer.calls.size() == 2);

    RecordingRenderer failing;
    failing.fail = true;
    options.renderer = &failing;
    std::vector<std::string> logged;
    options.log = [&logged](famspec::LogLevel level, std::string_view text) {
        if (level == famspec::LogLevel::error) logged.emplace_back(text);
    };
    const Resolver broken(toy_registry(), options);
    const auto e = broken.replacement_spec_for(target, std::nullopt, "toy.modeling_toy.ToyAttentionLayer");
    CHECK(e.status() == ResolutionStatus::error);
    REQUIRE(logged.size() == 1);
    CHECK(logged[0] == e.reason());
    // Errors are not cached: the next call asks again.
    CHECK(broken.replacement_spec_for(target, std::nullopt, "toy.modeling_toy.ToyAttentionLayer").status() ==
          ResolutionStatus::error);
    CHECK(failing.calls.size() == 2);
    CHECK(e.reason().find("missing") != std::string::npos);
    CHECK(e.reason().find("ToyAttention") != std::string::npos);
}

TEST_CASE("a component named directly wraps with its own defaults, whatever the spelling") {
    const Resolver resolver(toy_registry());
    const auto r = resolver.replacement_spec_for(kDirect, std::nullopt, kToyModuleType);
    REQUIRE(r.resolved());
    const auto& spec = *r.resolved()->spec;
    CHECK(spec.new_ctor == "ToyNorm");
    CHECK(spec.old_ctor == "ToyRMSNorm");
    CHECK(spec.mode == famspec::ConstructionMode::wrap_source);
    CHECK_FALSE(spec.remove_class);
    CHECK(spec.keyword_args == std::vector<std::string>{"module_fqn=''", "context=None"});
    REQUIRE(spec.imports.size() == 1);
    CHECK(spec.imports[0].module == "hyper_parallel.components.toy.norms");
    CHECK(spec.imports[0].names == std::vector<std::string>{"ToyNorm"});
    CHECK(r.explanation->channel == "direct-component");
    // The family plays no part: every spelling gives the same spec, and so does the package path of
    // the same class.
    for (const auto& model_type : {std::optional<std::string>("toy"), std::optional<std::string>("ToyForCausalLM"),
                                   std::optional<std::string>("other_toy")}) {
        CHECK(*resolver.replacement_spec_for(kDirect, model_type, kToyModuleType).resolved()->spec == spec);
    }
    CHECK(*resolver.replacement_spec_for("hyper_parallel.components.toy.ToyNorm", std::nullopt, kToyModuleType)
               .resolved()
               ->spec == spec);
    // Options are constructor parameters here.
    const auto eps = resolver.replacement_spec_for(kDirect, std::nullopt, kToyModuleType, {{"eps", 0.001}});
    REQUIRE(eps.resolved());
    CHECK(eps.resolved()->spec->keyword_args == std::vector<std::string>{"module_fqn=''", "context=None", "eps=0.001"});
    const auto fast = resolver.replacement_spec_for(kDirect, std::nullopt, kToyModuleType, {{"use_fast", true}});
    CHECK(*fast.resolved()->spec == spec);  // ignored, with a diagnostic
    REQUIRE(fast.diagnostics.size() == 1);
    CHECK(fast.diagnostics[0].message ==
          "option 'use_fast' is ignored: it is not declared; component ToyNorm declares: eps");
    CHECK(resolver.replacement_spec_for("hyper_parallel.components.toy.tables.ToyTable", std::nullopt, kToyModuleType)
              .reason() == "component ToyTable takes no 'module' parameter, so it cannot wrap the source module");
    CHECK(resolver.replacement_spec_for("hyper_parallel.components.toy.norms.Typo", std::nullopt, kToyModuleType)
              .reason() == "target hyper_parallel.components.toy.norms.Typo names no registered component");
    CHECK(resolver.replacement_spec_for(kDirect, std::nullopt, std::nullopt).reason() ==
          "missing module_type: without the matched source class there is no call site to rewrite (give it as the "
          "entry's module_type, or --module-type)");
}

TEST_CASE("a component named directly is answered without the family, even one no plugin registers") {
    const Resolver resolver(toy_registry());
    const auto plain = resolver.replacement_spec_for(kDirect, std::nullopt, kToyModuleType);
    REQUIRE(plain.resolved());
    for (const char* family : {"unregistered_model", "LlamaForCausalLM", "toy", ""}) {
        CAPTURE(family);
        const auto r = resolver.replacement_spec_for(kDirect, std::string(family), kToyModuleType);
        REQUIRE(r.resolved());
        CHECK(r.resolved()->spec == plain.resolved()->spec);  // one cache entry, so one object, whatever the family
        CHECK(r.explanation->channel == "direct-component");
        CHECK(r.explanation->family.empty());
        CHECK(r.explanation->spellings_tried.empty());
    }
    // Gaps are the same too: the target's own, never the family's.
    CHECK(resolver
              .replacement_spec_for("hyper_parallel.components.toy.norms.Typo", std::string("unregistered_model"),
                                    kToyModuleType)
              .gap() == famspec::Gap::not_registered);
    // The factory channel still reads the family.
    CHECK(resolver.replacement_spec_for(kToyNorm, std::string("unregistered_model"), kToyModuleType).gap() ==
          famspec::Gap::unknown_family);
    CHECK(famspec::target_reads_family(famspec::Slot::replace_module, kToyNorm));
    CHECK_FALSE(famspec::target_reads_family(famspec::Slot::replace_module, kDirect));
    CHECK(famspec::target_reads_family(famspec::Slot::local_compute_fn, kDirect));
    CHECK(famspec::target_reads_family(famspec::Slot::replace_module, "hyper_parallel.componentsX.Y"));
}

TEST_CASE("a family re-registered differently never reuses the earlier result") {
    const Resolver first(toy_registry());
    const Resolver second(reregistered_registry());
    const auto a = first.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    const auto b = second.replacement_spec_for(kToyNorm, "toy", kToyModuleType);
    REQUIRE(a.resolved());
    REQUIRE(b.resolved());
    CHECK(a.resolved()->spec->new_ctor == "ToyNorm");
    CHECK(b.resolved()->spec->new_ctor == "ToyExperts");
    CHECK(toy_registry()->generation() != reregistered_registry()->generation());
}
