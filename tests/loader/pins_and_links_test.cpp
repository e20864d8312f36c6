// A pin list that is given never means "no pins", and a plugin reached through symbolic links is
// judged by every directory that holds one of them: from the command line and through the API.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "famspec/famspec.hpp"
#include "famspec/names.hpp"
#include "famspec/required_digests.hpp"
#include "famspec/search_path.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::test::fixture_file;
using famspec::test::run_cli;
using famspec::test::TempDir;

namespace {

const std::string kPlan = famspec::test::source_dir() + "/examples/plans/qwen3_moe.yaml";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string stage_of(const famspec::PluginRecord& record) {
    return record.error ? std::string(famspec::name_of(record.error->stage)) : "ok";
}

// The one plugin `options` names, refused at the trust stage: why.
std::string trust_refusal(const famspec::LoadOptions& options) {
    const auto refused = famspec::load_plugins(options);
    REQUIRE(refused->plugins().size() == 1);
    REQUIRE(stage_of(refused->plugins()[0]) == "trust");
    return refused->plugins()[0].error->message;
}

// Why a plugin reached through `link` is refused while `holder`, the directory that holds the link, is
// writable by `who` ("its group", "others") with `mode`.
std::string link_refusal(const TempDir& holder, const std::string& who, const std::string& mode, const fs::path& link) {
    return "directory " + holder.path().string() + " is writable by " + who + " (mode " + mode + "); fix: chmod go-w " +
           holder.path().string() + " (it holds the symbolic link " + link.string() + " on the way to the plugin)";
}

std::vector<std::string> summary_with_pins(const std::string& pins) {
    return {"summary", "--digest", kPlan, "--plugin-path", famspec::test::plugin_dir(), "--require-digests", pins};
}

famspec::test::ProcessOptions with_variable(const std::string& value) {
    famspec::test::ProcessOptions options;
    options.environment["FAMSPEC_REQUIRE_DIGESTS"] = value;
    return options;
}

// Sets a variable for the life of the object.
struct Variable {
    const char* name;
    Variable(const char* variable, const std::string& value) : name(variable) { ::setenv(name, value.c_str(), 1); }
    ~Variable() { ::unsetenv(name); }
    Variable(const Variable&) = delete;
    Variable& operator=(const Variable&) = delete;
};

}  // namespace

TEST_CASE("an empty --require-digests or FAMSPEC_REQUIRE_DIGESTS is a usage error, never pinning turned off") {
    const auto flag = run_cli(summary_with_pins(""));
    CHECK(flag.exit_code == 2);
    CHECK(flag.out.empty());
    CHECK(flag.err ==
          "famspec: --require-digests is given but empty: pinned digests cannot be turned off by an empty value; "
          "name a digest list, or leave it out to load without pinned digests\n");

    auto json = summary_with_pins("");
    json.push_back("--json");
    const auto as_json = run_cli(json);
    CHECK(as_json.exit_code == 2);
    CHECK(contains(as_json.out, R"("kind":"usage")"));

    const auto variable =
        run_cli({"summary", "--digest", kPlan, "--plugin-path", famspec::test::plugin_dir()}, with_variable(""));
    CHECK(variable.exit_code == 2);
    CHECK(variable.out.empty());
    CHECK(variable.err ==
          "famspec: FAMSPEC_REQUIRE_DIGESTS is given but empty: pinned digests cannot be turned off "
          "by an empty value; name a digest list, or leave it out to load without pinned digests\n");
}

TEST_CASE("a pin file that is a directory, unreadable or malformed is a usage error that says which") {
    const TempDir dir;
    const auto directory = run_cli(summary_with_pins(dir.path().string()));
    CHECK(directory.exit_code == 2);
    CHECK(directory.out.empty());
    CHECK(directory.err ==
          "famspec: --require-digests: " + dir.path().string() + ": is a directory, not a digest list\n");

    const auto missing = run_cli(summary_with_pins((dir / "missing.txt").string()));
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "famspec: --require-digests: " + (dir / "missing.txt").string() +
                             ": cannot be read: No such file or directory\n");

    std::ofstream(dir / "bad.txt") << "# pins\n0123 famspec_qwen3_moe.so\n";
    const auto malformed = run_cli(summary_with_pins((dir / "bad.txt").string()));
    CHECK(malformed.exit_code == 2);
    CHECK(malformed.err ==
          "famspec: --require-digests: " + (dir / "bad.txt").string() + ":2: expected '<sha256> <name>'\n");

    const auto by_variable = run_cli({"summary", "--digest", kPlan, "--plugin-path", famspec::test::plugin_dir()},
                                     with_variable(dir.path().string()));
    CHECK(by_variable.exit_code == 2);
    CHECK(by_variable.err ==
          "famspec: FAMSPEC_REQUIRE_DIGESTS: " + dir.path().string() + ": is a directory, not a digest list\n");

    const famspec::RequiredDigests read = famspec::read_required_digests(dir.path());
    REQUIRE_FALSE(read.has_value());
    CHECK(read.error() == dir.path().string() + ": is a directory, not a digest list");
}

TEST_CASE("an empty pin file loads nothing, and says so") {
    const TempDir dir;
    std::ofstream(dir / "empty.txt").flush();
    const auto result = run_cli(summary_with_pins((dir / "empty.txt").string()));
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(contains(result.err, "famspec: warning: the digest list " + (dir / "empty.txt").string() +
                                   " (--require-digests) is empty: it pins no plugin, so no plugin loads\n"));
    CHECK(contains(result.err,
                   "refused: the required digests pin no plugin (the list is empty or could not be "
                   "used), so no plugin loads"));

    const famspec::RequiredDigests read = famspec::read_required_digests(dir / "empty.txt");
    REQUIRE(read.has_value());
    CHECK(read->empty());
    famspec::LoadOptions options;
    options.directories = {famspec::test::plugin_dir()};
    options.required_digests = *read;
    const auto registry = famspec::load_plugins(options);
    CHECK(registry->families().empty());
    REQUIRE_FALSE(registry->plugins().empty());
    for (const auto& record : registry->plugins()) {
        CHECK(stage_of(record) == "trust");
        CHECK(contains(record.error->message, "the required digests pin no plugin"));
    }
}

TEST_CASE("through the API, a FAMSPEC_REQUIRE_DIGESTS that is set but empty pins nothing") {
    const Variable variable("FAMSPEC_REQUIRE_DIGESTS", "");
    const famspec::LoadOptions options = famspec::load_options_from_environment({famspec::test::plugin_dir()});
    REQUIRE(options.required_digests.has_value());
    CHECK(options.required_digests->empty());
    REQUIRE(options.search_errors.size() == 1);
    CHECK(options.search_errors[0].stage == famspec::PluginStage::trust);
    CHECK(options.search_errors[0].message ==
          "FAMSPEC_REQUIRE_DIGESTS: cannot use the required digests: FAMSPEC_REQUIRE_DIGESTS is set but empty; name a "
          "digest list, or unset "
          "it to load without pinned digests");
    CHECK_FALSE(famspec::load_plugins(options)->all_ok());
}

TEST_CASE("a link to a link: every directory that holds a link on the way is checked") {
    const TempDir safe;    // searched; holds the first link
    const TempDir shared;  // writable by others; holds the second link
    const TempDir real;    // holds the file
    fs::copy_file(fixture_file("zoo_good"), real / "famspec_zoo_good.so");
    fs::create_symlink(real / "famspec_zoo_good.so", shared / "hop.so");
    fs::create_symlink(shared / "hop.so", safe / "famspec_zoo_good.so");
    fs::permissions(shared.path(), static_cast<fs::perms>(0757));

    famspec::LoadOptions options;
    options.directories = {safe.path()};
    CHECK(contains(trust_refusal(options), link_refusal(shared, "others", "0757", shared / "hop.so")));

    const auto cli = run_cli({"summary", "--digest", kPlan, "--plugin-path", famspec::test::plugin_dir(),
                              "--plugin-path", safe.path().string()});
    CHECK(cli.exit_code == 1);
    CHECK(cli.out.empty());
    CHECK(contains(cli.err, "plugin not loaded (trust): " + (safe / "famspec_zoo_good.so").string()));
    CHECK(contains(cli.err, "directory " + shared.path().string() + " is writable by others"));

    fs::permissions(shared.path(), static_cast<fs::perms>(0755));
    CHECK(famspec::load_plugins(options)->all_ok());
}

TEST_CASE("a link among the directories of a link's target: the directory that holds it is checked") {
    const TempDir safe;
    const TempDir shared;
    const TempDir real;
    fs::copy_file(fixture_file("zoo_good"), real / "famspec_zoo_good.so");
    fs::create_symlink(real.path(), shared / "current");  // shared/current -> real
    fs::create_symlink(shared / "current" / "famspec_zoo_good.so", safe / "famspec_zoo_good.so");
    fs::permissions(shared.path(), static_cast<fs::perms>(0775));

    famspec::LoadOptions options;
    options.files = {safe / "famspec_zoo_good.so"};
    CHECK(contains(trust_refusal(options), link_refusal(shared, "its group", "0775", shared / "current")));

    fs::permissions(shared.path(), static_cast<fs::perms>(0755));
    CHECK(famspec::load_plugins(options)->all_ok());
}

TEST_CASE("a searched directory reached through a link: the directory that holds the link is checked") {
    const TempDir shared;
    const TempDir real;
    fs::copy_file(fixture_file("zoo_good"), real / "famspec_zoo_good.so");
    fs::create_symlink(real.path(), shared / "current");  // shared/current -> real, searched
    fs::permissions(shared.path(), static_cast<fs::perms>(0775));

    famspec::LoadOptions options;
    options.directories = {shared / "current"};
    CHECK(contains(trust_refusal(options), link_refusal(shared, "its group", "0775", shared / "current")));

    fs::permissions(shared.path(), static_cast<fs::perms>(0755));
    CHECK(famspec::load_plugins(options)->all_ok());
}
