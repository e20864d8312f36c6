// A selective load (famspec/read_selection.hpp) copies the rows of the plugins a plan touches only, keeps
// every plugin's record and manifest, and refuses exactly what a full load refuses whenever anything
// it reads is refused or any claim is shared: then it reads every plugin.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/read_selection.hpp"
#include "famspec/registry_entries.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::LoadOptions;
using famspec::PluginRecord;
using famspec::ReadSelection;
using famspec::Registry;
using famspec::test::TempDir;

namespace {

famspec::Plan example_plan(const std::string& name) {
    auto plan = famspec::parse_plan_file(famspec::test::source_dir() + "/examples/plans/" + name);
    REQUIRE(plan.has_value());
    return std::move(plan).value();
}

std::shared_ptr<const Registry> load(const std::string& directory, std::optional<ReadSelection> read = {}) {
    LoadOptions options;
    options.directories = {directory};
    return read ? famspec::load_plugins(options, *read) : famspec::load_plugins(options);
}

// The plugins whose rows the load copied, by name.
std::set<std::string> rows_read(const Registry& registry) {
    std::set<std::string> names;
    for (const PluginRecord& record : registry.plugins()) {
        if (record.rows_read) names.insert(record.manifest->name);
    }
    return names;
}

// Each record as "<file> ok" or "<file> <stage>: <message>".
std::vector<std::string> outcomes(const Registry& registry) {
    std::vector<std::string> out;
    for (const PluginRecord& record : registry.plugins()) {
        const std::string file = fs::path(record.path).filename().string();
        out.push_back(record.ok() ? file + " ok"
                                  : file + " " + std::to_string(static_cast<int>(record.error->stage)) + ": " +
                                        record.error->message);
    }
    return out;
}

// The shipped plugins and one fixture, side by side.
struct ShippedWith {
    TempDir dir;
    explicit ShippedWith(const std::string& fixture) {
        for (const auto& entry : fs::directory_iterator(famspec::test::plugin_dir())) {
            if (entry.path().extension() == ".so") fs::copy_file(entry.path(), dir / entry.path().filename().string());
        }
        const fs::path file = famspec::test::fixture_file(fixture);
        fs::copy_file(file, dir / file.filename().string());
    }
    std::string path() const { return dir.path().string(); }
};

}  // namespace

TEST_CASE("selective load: only the plugins the plan touches, and the catalogue their factories construct from") {
    const auto full = load(famspec::test::plugin_dir());
    const auto selective =
        load(famspec::test::plugin_dir(), famspec::read_selection(example_plan("qwen3_moe.yaml"), {}));
    REQUIRE(full->all_ok());
    CHECK(selective->all_ok());
    CHECK(rows_read(*selective) == std::set<std::string>{"components", "qwen3_moe"});
    CHECK(rows_read(*full).size() == full->plugins().size());
    // Every record and manifest is kept: list-like answers from the records do not change.
    REQUIRE(selective->plugins().size() == full->plugins().size());
    for (std::size_t i = 0; i < full->plugins().size(); ++i) {
        CHECK(selective->plugins()[i].path == full->plugins()[i].path);
        REQUIRE(selective->plugins()[i].manifest != nullptr);
        CHECK(*selective->plugins()[i].manifest == *full->plugins()[i].manifest);
    }
    // The rows of an untouched plugin were not copied.
    CHECK(full->find_family("deepseek_v3") != nullptr);
    CHECK(selective->find_family("deepseek_v3") == nullptr);
    CHECK(selective->find_family("qwen3_moe") != nullptr);
    CHECK(selective->families().size() == 1);
}

TEST_CASE("selective load: a family's spellings and a target's last name decide what is touched") {
    ReadSelection by_directory{.families = {"deepseekv3"}, .targets = {}};
    CHECK(rows_read(*load(famspec::test::plugin_dir(), by_directory)) == std::set<std::string>{"deepseek_v3"});
    // A component named directly, by its re-exporting module: the manifest lists its defining path.
    ReadSelection by_component{.families = {}, .targets = {"hyper_parallel.components.GQAAttention"}};
    CHECK(rows_read(*load(famspec::test::plugin_dir(), by_component)) == std::set<std::string>{"components"});
    CHECK(rows_read(*load(famspec::test::plugin_dir(), ReadSelection{})).empty());
}

TEST_CASE("selective load: an untouched plugin whose rows are broken is not read; a full load refuses it") {
    const ShippedWith dir("bad_allowed_default");
    const auto full = load(dir.path());
    const auto selective = load(dir.path(), famspec::read_selection(example_plan("qwen3_moe.yaml"), {}));
    CHECK_FALSE(full->all_ok());
    CHECK(selective->all_ok());
    const auto named = [](const Registry& registry) {
        return *std::find_if(registry.plugins().begin(), registry.plugins().end(), [](const PluginRecord& record) {
            return record.path.ends_with("famspec_bad_allowed_default.so");
        });
    };
    REQUIRE_FALSE(named(*full).ok());
    CHECK(named(*full).error->stage == famspec::PluginStage::register_);
    CHECK(named(*selective).ok());
    CHECK_FALSE(named(*selective).rows_read);
    // Touched, it is read and refused as by a full load.
    const auto touching = load(dir.path(), ReadSelection{.families = {"bad_allowed_default"}, .targets = {}});
    CHECK(outcomes(*touching) == outcomes(*full));
}

TEST_CASE("selective load: a claim two untouched plugins share makes it read every plugin and refuse both") {
    const ShippedWith dir("impostor_qwen3_moe");
    const auto full = load(dir.path());
    const auto selective = load(dir.path(), famspec::read_selection(example_plan("deepseek_v3.yaml"), {}));
    CHECK_FALSE(selective->all_ok());
    CHECK(outcomes(*selective) == outcomes(*full));
    CHECK(rows_read(*selective).size() == selective->plugins().size());
    CHECK(selective->families().size() == full->families().size());
}
