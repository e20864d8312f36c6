// The loader reads an ABI 4.0 plugin, which is data, into the registry a register function fills:
// the table-form qwen3 plugin file answers as the shipped qwen3 plugin does.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/registry_description.hpp"
#include "famspec/sdk/tables.hpp"

namespace {

std::shared_ptr<const famspec::Registry> loaded(const std::string& family_plugin) {
    famspec::LoadOptions options;
    options.files = {family_plugin, std::string(FAMSPEC_TEST_PLUGIN_DIR) + "/famspec_components.so"};
    options.allow_insecure = true;
    return famspec::load_plugins(options);
}

// Paths and `where` name files, which differ between the two builds; the declarations must not.
std::string declarations_of(const famspec::Registry& registry) {
    static const std::regex located(R"re("(path|where|plugin)":"[^"]*")re");
    return std::regex_replace(famspec::describe_registry_json(registry), located, R"("$1":"")");
}

}  // namespace

TEST_CASE("the loader reads a table-form plugin into the registry the register function fills") {
    const auto tables = loaded(FAMSPEC_TEST_TABLE_PLUGIN);
    const auto builders = loaded(std::string(FAMSPEC_TEST_PLUGIN_DIR) + "/famspec_qwen3.so");
    for (const auto* registry : {tables.get(), builders.get()}) {
        REQUIRE(registry->plugins().size() == 2);
        for (const famspec::PluginRecord& record : registry->plugins()) {
            REQUIRE_MESSAGE(record.ok(), record.error->message);
        }
    }
    const famspec::PluginRecord& table_plugin = tables->plugins()[0];
    REQUIRE(table_plugin.manifest != nullptr);
    CHECK(table_plugin.manifest->abi_major == famspec::kAbiMajor);
    CHECK(table_plugin.manifest->factories.size() == 3);
    // The manifest the build embedded, read before the plugin was mapped, is the one its tables give.
    famspec::PluginManifest carried = *table_plugin.manifest;
    famspec::PluginManifest shipped = *builders->plugins()[0].manifest;
    carried.abi_major = shipped.abi_major;
    CHECK(famspec::to_json(carried) == famspec::to_json(shipped));
    CHECK(declarations_of(*tables) == declarations_of(*builders));
}

TEST_CASE("tables in writable memory are refused at the register stage, before a row is read") {
    famspec::LoadOptions options;
    options.files = {FAMSPEC_TEST_WRITABLE_TABLES};
    options.allow_insecure = true;
    const auto registry = famspec::load_plugins(options);
    REQUIRE(registry->plugins().size() == 1);
    const famspec::PluginRecord& record = registry->plugins()[0];
    REQUIRE_FALSE(record.ok());
    CHECK(record.error->stage == famspec::PluginStage::register_);
    CHECK(record.error->message ==
          std::string(FAMSPEC_TEST_WRITABLE_TABLES) + ": refused: its tables do not lie in its own read-only segments");
    CHECK(registry->families().empty());
}
