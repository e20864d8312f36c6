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
    if (result) {
        // Shared and immutable; copying it is optional. A native target has none: the family builds
        // it at runtime, and there is nothing to sink.
        if (result->spec) return *result->spec;
        return std::nullopt;
    }
    const famspec::NotCovered& why = result.error();
    if (why.is_error()) {
        std::cerr << "error: " << why.reason << "\n";  // a plugin's declaration is broken
    } else {
        std::cerr << "not covered: " << why.reason << " (" << famspec::name_of(why.gap) << ")\n";
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
            if (spec.resolved() && spec->spec->target_class) target_classes[i] = *spec->spec->target_class;
        });
    }
    workers.clear();  // joins
    return target_classes;
}
// [/snippet:threads]

}  // namespace docs
