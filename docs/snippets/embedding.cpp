// How a training runtime embeds the core: docs/embedding.md quotes these regions, and
// tests/package/docs_test.cpp runs them against the docs plugin.
#include "embedding.hpp"

#include <cstdlib>
#include <iostream>
#include <thread>

namespace docs {

// [snippet:load]
std::shared_ptr<const famspec::Registry> load_families(const std::vector<std::string>& plugin_dirs) {
    // The core never prints; it reports through this callback (any thread, so keep it thread-safe).
    famspec::LogCallback log = [](famspec::LogLevel level, std::string_view message) {
        if (level >= famspec::LogLevel::warning) std::cerr << "famspec: " << message << "\n";
    };
    // plugin_dirs win, then FAMSPEC_PLUGIN_PATH, then famspec/plugins next to libfamspec.so; and
    // FAMSPEC_ALLOW_INSECURE / FAMSPEC_REQUIRE_DIGESTS, all read with secure_getenv.
    const famspec::LoadOptions options = famspec::load_options_from_environment(plugin_dirs, std::move(log));
    // Once, at start-up: the result is frozen and shared; nothing is ever unloaded.
    return famspec::load_plugins(options);
}
// [/snippet:load]

// [snippet:failures]
std::vector<std::string> plugin_failures(const famspec::Registry& registry) {
    std::vector<std::string> failures;
    for (const famspec::PluginRecord& record : registry.plugins()) {
        if (record.ok()) continue;
        // message names the file and both sides; stage says how far the plugin got.
        failures.push_back(std::string(famspec::stage_name(record.error->stage)) + ": " + record.error->message);
    }
    return failures;
}
// [/snippet:failures]

// [snippet:resolve]
std::optional<famspec::ReplacementSpec> replacement_for(const famspec::Resolver& resolver, const std::string& target,
                                                        const std::string& model_type, const std::string& module_type) {
    const famspec::Resolution<famspec::ReplacementSpec> result =
        resolver.replacement_spec_for(target, model_type, module_type);
    switch (result.status) {
        case famspec::ResolutionStatus::resolved:
            return *result.value;                // shared and immutable; copying it is optional
        case famspec::ResolutionStatus::native:  // the family builds it at runtime: nothing to sink
            return std::nullopt;
        case famspec::ResolutionStatus::not_covered:
            std::cerr << "not covered: " << result.reason << " (" << famspec::gap_name(result.gap) << ")\n";
            return std::nullopt;
        case famspec::ResolutionStatus::error:
            std::cerr << "error: " << result.reason << "\n";
            return std::nullopt;
    }
    return std::nullopt;
}
// [/snippet:resolve]

// [snippet:threads]
std::vector<std::string> resolve_in_parallel(std::shared_ptr<const famspec::Registry> registry,
                                             const std::vector<std::string>& compute_factories) {
    const famspec::Resolver resolver(std::move(registry));  // one resolver, shared by every thread
    std::vector<std::string> target_classes(compute_factories.size());
    std::vector<std::jthread> workers;
    for (std::size_t i = 0; i < compute_factories.size(); ++i) {
        workers.emplace_back([&, i] {
            const auto spec =
                resolver.strategy_spec_for(compute_factories[i], std::nullopt, famspec::Slot::local_compute_fn);
            if (spec.resolved() && spec.value->target_class) target_classes[i] = *spec.value->target_class;
        });
    }
    workers.clear();  // joins
    return target_classes;
}
// [/snippet:threads]

}  // namespace docs
