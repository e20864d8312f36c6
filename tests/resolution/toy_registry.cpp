#include "toy_registry.hpp"

#include <doctest/doctest.h>

#include "famspec/plugin_loader.hpp"
#include "process.hpp"

namespace famspec::test {

std::shared_ptr<const Registry> load_fixtures(std::initializer_list<const char*> names) {
    LoadOptions options;
    for (const char* name : names) options.directories.emplace_back(fixture_dir(name));
    auto registry = load_plugins(options);
    for (const auto& record : registry->plugins()) {
        INFO(record.path << ": " << (record.error ? record.error->message : std::string("ok")));
        REQUIRE(record.ok());
    }
    return registry;
}

std::shared_ptr<const Registry> toy_registry() {
    static const auto registry = load_fixtures({"toy_components", "toy"});
    return registry;
}

std::shared_ptr<const Registry> reregistered_registry() {
    static const auto registry = load_fixtures({"toy_components", "toy_reregistered"});
    return registry;
}

}  // namespace famspec::test
