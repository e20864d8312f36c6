// Answers, for each target of a plan, what source-level declaration it stands for, by asking the frozen
// registry. Thread-safe; answers are cached (bounded) by the request as asked: a request asked again
// while it is cached is answered with the same objects, without allocating.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "famspec/log.hpp"
#include "famspec/plan.hpp"
#include "famspec/registry.hpp"
#include "famspec/resolution.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/specs.hpp"

namespace famspec {

// One query, one shape from the caller (CLI, Python, a plan) through the cache, keyed by it, to the builder.
struct ResolveRequest {
    std::string target;                     // the dotted _target_ path
    std::optional<std::string> model_type;  // the family, any spelling; empty: inferred from the path
    Slot slot = Slot::replace_module;
    std::optional<std::string> module_type;  // the dotted source class (replace_module)
    Options options;                         // static options written next to the target
    bool strict = false;                     // every diagnostic makes the target not covered
};

namespace detail {
struct ResolverState;
}
class ComponentRenderer;  // famspec/component_renderer.hpp: only a host that renders its own way needs it

// One injection record: the local_compute_fn target of a plan entry.
struct Injection {
    std::optional<std::string> local_compute_fn;
    Options options;
};

struct DeclarationSummary;  // famspec/declaration_summary.hpp: a whole plan, resolved

struct ResolverOptions {
    std::size_t cache_capacity = 4096;
    const ComponentRenderer* renderer = nullptr;  // nullptr: block_renderer()
    LogCallback log;
};

class FAMSPEC_API Resolver {
public:
    explicit Resolver(std::shared_ptr<const Registry> registry, ResolverOptions options = {});  // not copyable
    ~Resolver();

    // request.slot must be replace_module.
    Resolution<ReplacementSpec> replacement_spec_for(const ResolveRequest& request) const;
    // request.slot must be local_compute_fn or inner_wrapper.
    Resolution<StrategySpec> strategy_spec_for(const ResolveRequest& request) const;

    // Shorthands: a ResolveRequest, not strict, built (copied) per call; a kept request asks without allocating.
    Resolution<ReplacementSpec> replacement_spec_for(std::string_view target,
                                                     const std::optional<std::string>& model_type,
                                                     const std::optional<std::string>& module_type,
                                                     const Options& options = {}) const;
    Resolution<StrategySpec> strategy_spec_for(std::string_view target, const std::optional<std::string>& model_type,
                                               Slot slot, const Options& options = {}) const;
    Resolution<std::string> interface_component_class(std::string_view model_type) const;
    std::vector<std::string> external_state_classes_for(const std::optional<std::string>& model_type,
                                                        std::span<const Injection> injections) const;
    // model_type overrides the plan's own family (plan_family); with none, each target's family is
    // inferred from its path. strict: every diagnostic makes its target not covered.
    DeclarationSummary declaration_summary(const std::optional<std::string>& model_type, const Plan& plan,
                                           bool strict = false) const;

    const Registry& registry() const;
    void clear_cache() const;

private:
    std::unique_ptr<detail::ResolverState> state_;
};

}  // namespace famspec
