// A broken plugin set-up never gives a valid-looking answer: summary, check and resolve exit 1 with
// nothing on stdout and the cause and remedy on stderr; --allow-partial keeps answering from what
// loaded. The trust flags reach the loader from the command line and from the environment.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::test::run_cli;
using famspec::test::TempDir;

namespace {

const std::string kPlan = famspec::test::source_dir() + "/examples/plans/qwen3_moe.yaml";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A private copy of the shipped plugin directory, which a test may then damage.
struct ShippedCopy {
    TempDir dir;
    ShippedCopy() {
        for (const auto& entry : fs::directory_iterator(famspec::test::plugin_dir())) {
            if (entry.path().extension() == ".so") fs::copy_file(entry.path(), dir / entry.path().filename().string());
        }
    }
    std::string path() const { return dir.path().string(); }
};

std::string good_digest() {
    const auto result = run_cli({"summary", "--digest", kPlan, "--plugin-path", famspec::test::plugin_dir()});
    REQUIRE(result.exit_code == 0);
    REQUIRE(result.out.starts_with("sha256:"));
    return result.out;
}

}  // namespace

TEST_CASE("an empty plugin directory: summary, check and resolve exit 1 with nothing on stdout") {
    const TempDir empty;
    const std::vector<std::vector<std::string>> commands = {
        {"summary", "--digest", kPlan},
        {"check", kPlan},
        {"resolve", "--target", "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm"},
    };
    for (std::vector<std::string> command : commands) {
        command.insert(command.end(), {"--plugin-path", empty.path().string()});
        const auto result = run_cli(command);
        INFO(command[0] << ": " << result.err);
        CHECK(result.exit_code == 1);
        CHECK(result.out.empty());
        CHECK(contains(result.err, "famspec: error: plugin not loaded (find): " + empty.path().string() +
                                       ": plugin directory holds no plugin (*.so)"));
        CHECK(contains(result.err, "pass --allow-partial to answer from the plugins that did load"));
    }
}

TEST_CASE("a broken plugin next to good ones fails the digest; --allow-partial gives the old answer") {
    const ShippedCopy copy;
    std::ofstream(copy.dir / "famspec_broken.so") << "not a plugin\n";
    const auto strict = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path()});
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.empty());
    CHECK(contains(strict.err, "plugin not loaded (manifest): " + (copy.dir / "famspec_broken.so").string()));

    const auto partial = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path(), "--allow-partial"});
    CHECK(partial.exit_code == 0);
    CHECK(partial.out == good_digest());
    CHECK(contains(partial.err, "famspec: warning: plugin not loaded (manifest): "));
}

TEST_CASE("a second plugin claiming a shipped family fails the digest whatever its name") {
    for (const std::string name : {"famspec_aaa_impostor.so", "famspec_zzz_impostor.so"}) {
        const ShippedCopy copy;
        fs::copy_file(famspec::test::fixture_file("impostor_qwen3_moe"), copy.dir / name);
        const auto result = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path()});
        INFO(name << ": " << result.err);
        CHECK(result.exit_code == 1);
        CHECK(result.out.empty());
        CHECK(contains(result.err, "family 'qwen3_moe' is also registered by plugin 'impostor_qwen3_moe' (" +
                                       (copy.dir / name).string() + ")"));
        CHECK(contains(result.err, "family 'qwen3_moe' is also registered by plugin 'qwen3_moe' (" +
                                       (copy.dir / "famspec_qwen3_moe.so").string() + ")"));
    }
}

TEST_CASE("an insecure plugin directory is refused unless the flag or the variable allows it") {
    const ShippedCopy copy;
    fs::permissions(copy.dir.path(), static_cast<fs::perms>(0757));
    const auto refused = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path()});
    CHECK(refused.exit_code == 1);
    CHECK(refused.out.empty());
    CHECK(contains(refused.err, "plugin not loaded (trust): "));
    CHECK(contains(refused.err, "directory " + copy.path() + " is writable by others (mode 0757); fix: chmod go-w"));

    const auto flag = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path(), "--allow-insecure-plugins"});
    CHECK(flag.exit_code == 0);
    CHECK(flag.out == good_digest());
    CHECK(contains(flag.err, "famspec: warning: "));
    CHECK(contains(flag.err, "loaded although insecure"));

    famspec::test::ProcessOptions environment;
    environment.environment["FAMSPEC_ALLOW_INSECURE"] = "1";
    const auto variable = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path()}, environment);
    CHECK(variable.exit_code == 0);
    CHECK(variable.out == good_digest());
    CHECK(contains(variable.err, "loaded although insecure"));
}

TEST_CASE("--require-digests and FAMSPEC_REQUIRE_DIGESTS load only the pinned files") {
    const ShippedCopy copy;
    const TempDir lists;
    const fs::path list = lists / "pins.txt";
    const auto sums = famspec::test::run_process({"sh", "-c", "cd '" + copy.path() + "' && sha256sum *.so"});
    REQUIRE(sums.exit_code == 0);
    std::ofstream(list) << sums.out;
    const auto pinned =
        run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path(), "--require-digests", list.string()});
    CHECK(pinned.exit_code == 0);
    CHECK(pinned.out == good_digest());

    std::ofstream(copy.dir / "famspec_qwen3_moe.so", std::ios::app) << "x";  // no longer the pinned build
    famspec::test::ProcessOptions environment;
    environment.environment["FAMSPEC_REQUIRE_DIGESTS"] = list.string();
    const auto changed = run_cli({"summary", "--digest", kPlan, "--plugin-path", copy.path()}, environment);
    CHECK(changed.exit_code == 1);
    CHECK(changed.out.empty());
    CHECK(contains(changed.err, "plugin not loaded (trust): " + (copy.dir / "famspec_qwen3_moe.so").string() +
                                    ": refused: its SHA-256 "));
    CHECK(contains(changed.err, "the list pins 'famspec_qwen3_moe.so' to "));
}
