// How a training runtime embeds the core: docs/embedding.md quotes these regions, and
// tests/package/docs_test.cpp runs them against the docs plugin.
#include "embedding.hpp"

#include <cstdlib>
#include <iostream>
#include <thread>

#include "famspec/names.hpp"
#include "famspec/search_path.hpp"

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
        failures.push_back(std::string(famspec::name_of(record.error->stage)) + ": " + record.error->message);
    }
    return failures;
}
// [/snippet:failures]

// [snippet:resolve]
std::optional<famspec::ReplacementSpec> replacement_for(const famspec::Resolver& resolver, const std::string& target,
                                                        const std::string& model_type, const std::string& module_type) {
    const famspec::Resolution<famspec::ReplacementSpec> result =
        resolver.replacement_spec_for(target, model_type, module_type);
    // One of four states, each holding what only it has. The spec is shared and immutable; copying it
    // is optional.
    if (const auto* resolved = result.resolved()) return *resolved->spec;
    if (const auto* not_covered = std::get_if<famspec::NotCovered>(&result.state)) {
        std::cerr << "not covered: " << not_covered->reason << " (" << famspec::name_of(not_covered->gap) << ")\n";
    } else if (const auto* broken = std::get_if<famspec::Broken>(&result.state)) {
        std::cerr << "error: " << broken->reason << "\n";  // a plugin's declaration is broken
    }
    // famspec::Native: the family builds the target at runtime, and there is nothing to sink.
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
            const auto answer =
                resolver.strategy_spec_for(compute_factories[i], std::nullopt, famspec::Slot::local_compute_fn);
            const auto* resolved = answer.resolved();
            if (resolved && resolved->spec->target_class) target_classes[i] = *resolved->spec->target_class;
        });
    }
    workers.clear();  // joins
    return target_classes;
}
// [/snippet:threads]

}  // namespace docs
