// Plugins of many declarations: read and copied whole when their block holds them, refused whole when
// their rows would copy far more than the block (rows that share one large string).
#include <doctest/doctest.h>

#include <string>

#include "famspec/famspec.hpp"
#include "famspec/plugin_manifest.hpp"
#include "process.hpp"

namespace {

std::shared_ptr<const famspec::Registry> load_fixture(const std::string& name) {
    famspec::LoadOptions options;
    options.files.push_back(famspec::test::fixture_file(name));
    return famspec::load_plugins(options);
}

}  // namespace

TEST_CASE("a plugin of 1000 factories is read, its manifest and its registry whole") {
    const auto registry = load_fixture("many_declarations");
    REQUIRE(registry->plugins().size() == 1);
    const famspec::PluginRecord& record = registry->plugins().front();
    INFO((record.error ? record.error->message : std::string()));
    REQUIRE(record.ok());
    REQUIRE(record.manifest);
    CHECK(record.manifest->factories.size() == 1000);
    CHECK(record.manifest->factories.front() == "hyper_parallel.models.many.adapter.replacements.replace_norm_0");
    CHECK(registry->find_factory("hyper_parallel.models.many.adapter.replacements.replace_norm_999") != nullptr);
}

TEST_CASE("rows that share one large string are refused whole, naming the copy bound") {
    const auto registry = load_fixture("shared_large_string");
    REQUIRE(registry->plugins().size() == 1);
    const famspec::PluginRecord& record = registry->plugins().front();
    REQUIRE(record.error);
    CHECK(record.error->stage == famspec::PluginStage::register_);
    const std::string path = famspec::test::fixture_file("shared_large_string").string();
    CHECK(record.error->message.rfind(path + ": refused: its rows name their strings and lists so often that "
                                             "copying them would take more than 8 times its ",
                                      0) == 0);
    CHECK(record.error->message.ends_with("-byte block"));
    CHECK_FALSE(record.manifest);
    CHECK(registry->families().empty());
}
