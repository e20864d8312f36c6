// `famspec audit`: the C++ command runs the Python audit, and says so when it cannot.
#include <doctest/doctest.h>

#include "process.hpp"

using famspec::test::run_cli;
using famspec::test::source_dir;

namespace {

std::string fixture_root() { return source_dir() + "/tests/audit/fixtures/runtime"; }

}  // namespace

TEST_CASE("famspec audit without an interpreter names the one it needs") {
    famspec::test::ProcessOptions options;
    options.environment["FAMSPEC_PYTHON"] = "/nonexistent/python3";
    const auto result = run_cli({"audit", "--source-root", fixture_root()}, options);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(result.err.find("needs /nonexistent/python3") != std::string::npos);
    CHECK(result.err.find("apt-get install python3") != std::string::npos);
}

TEST_CASE("famspec audit requires a source root") {
    const auto result = run_cli({"audit"});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--source-root") != std::string::npos);
}
