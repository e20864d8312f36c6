// summary, check and resolve read the rows of the plugins a plan or target touches only; what they
// print and refuse is what a load of every plugin gives, and verify and list still read everything.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "selective_equality.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using famspec::test::run_cli;
using famspec::test::TempDir;

namespace {

const std::string kPlans = famspec::test::source_dir() + "/examples/plans/";
const std::string kDigest = "sha256:63e4b22e4e55807a6ef0eea1a20f61623237e85250ac076b546c9f230b91e54d";

// The shipped plugins and bad_allowed_default, whose CP wrapper only stage register refuses.
struct ShippedWithBrokenRows {
    TempDir dir;
    ShippedWithBrokenRows() {
        for (const auto& entry : fs::directory_iterator(famspec::test::plugin_dir())) {
            if (entry.path().extension() == ".so") fs::copy_file(entry.path(), dir / entry.path().filename().string());
        }
        const fs::path broken = famspec::test::fixture_file("bad_allowed_default");
        fs::copy_file(broken, dir / broken.filename().string());
    }
    std::string path() const { return dir.path().string(); }
};

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST_CASE("selective read: every example plan answers as from every plugin, from the plugins it touches") {
    std::vector<std::string> plans;
    for (const auto& entry : fs::directory_iterator(kPlans)) plans.push_back(entry.path().string());
    std::sort(plans.begin(), plans.end());
    REQUIRE(plans.size() == 5);
    for (const std::string& plan : plans) CHECK(famspec::test::check_selective_equals_full(plan));
    const auto digest = run_cli({"summary", "--digest", kPlans + "qwen3_moe.yaml"});
    CHECK(digest.exit_code == 0);
    CHECK(digest.out == kDigest + "\n");
}

TEST_CASE("selective read: a target not covered is explained from every plugin, as before") {
    const TempDir dir;
    // A misspelt factory and an unknown CP wrapper: their reasons name the nearest registered names.
    const std::string plan = write(dir, "misspelt.yaml",
                                   "model_type: qwen3_moe\nplan_overrides:\n"
                                   "  - match: '*.norm'\n    module_type: a.Norm\n    replace_module:\n"
                                   "      _target_: hyper_parallel.models.qwen3_moe.adapter.replacements."
                                   "replace_qwen3_moe_rms_nrom\n"
                                   "  - match: '*.attn'\n    when: cp\n    inner_wrapper:\n"
                                   "      _target_: hyper_parallel.models.qwen3_moe.mla_cp_wrapper\n");
    CHECK_FALSE(famspec::test::check_selective_equals_full(plan));
    const auto checked = run_cli({"check", plan});
    CHECK(checked.exit_code == 1);
    CHECK(checked.out.find("did you mean") != std::string::npos);
}

TEST_CASE("selective read: an untouched plugin with broken rows is not read; verify, list and --strict refuse it") {
    const ShippedWithBrokenRows dir;
    const std::string plan = kPlans + "qwen3_moe.yaml";
    const auto digest = run_cli({"summary", "--digest", plan, "--plugin-path", dir.path()});
    INFO(digest.err);
    CHECK(digest.exit_code == 0);
    CHECK(digest.out == kDigest + "\n");
    CHECK(digest.err.empty());
    CHECK(run_cli({"check", plan, "--plugin-path", dir.path()}).exit_code == 0);
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"verify", "--plugin-path", dir.path()},
          std::vector<std::string>{"list", "--plugin-path", dir.path()},
          std::vector<std::string>{"summary", "--digest", plan, "--strict", "--plugin-path", dir.path()},
          std::vector<std::string>{"summary", "--digest", plan, "--with-snapshot", "--plugin-path", dir.path()}}) {
        const auto refused = run_cli(command);
        CAPTURE(command[0]);
        CHECK(refused.exit_code == 1);
        CHECK((refused.out + refused.err).find("famspec_bad_allowed_default.so: registration rejected") !=
              std::string::npos);
    }
    // A plan that touches it reads it, and refuses as before.
    const TempDir plans;
    const std::string touching =
        write(plans, "touching.yaml",
              "model_type: bad_allowed_default\nplan_overrides:\n"
              "  - match: '*.attn'\n    when: cp\n    inner_wrapper:\n      _target_: "
              "hyper_parallel.models.bad_allowed_default.adapter.context_parallel.cp_wrapper\n");
    const auto refused = run_cli({"summary", "--digest", touching, "--plugin-path", dir.path()});
    CHECK(refused.exit_code == 1);
    CHECK(refused.out.empty());
    CHECK(refused.err.find("plugin not loaded (register)") != std::string::npos);
}
