// Output integrity: every command flushes and checks stdout (a closed stdout, a full disk or a
// reader that went away is exit 2 with a message on stderr), and control characters from plugins,
// plans and file names are escaped in human-readable output.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "temp_dir.hpp"

using namespace famspec::test::cli;

namespace {

std::vector<std::vector<std::string>> commands_with_output() {
    const std::string plan = qwen_plan();
    return {
        {"--version"},
        {"--help"},
        {"list"},
        {"list", "--json"},
        {"show", "qwen3_moe"},
        {"verify", "--plugin-path", fixture_dir("zoo_good")},
        {"resolve", "--target", kQwenNorm, "--module-type", "a.B"},
        {"check", plan},
        {"summary", plan},
        {"summary", "--digest", plan},
    };
}

ProcessResult run_with_stdout(const std::vector<std::string>& arguments, int parent_fd) {
    ProcessOptions options;
    options.descriptors.emplace_back(1, parent_fd);
    return run_cli(arguments, options);
}

std::string tail_line(const std::string& text) {
    const std::size_t end = text.find_last_not_of('\n');
    if (end == std::string::npos) return {};
    const std::size_t begin = text.rfind('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1,
                       end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

}  // namespace

TEST_CASE("a full disk on stdout is exit 2 with a message on stderr, for every command") {
    const int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
    REQUIRE(full >= 0);
    for (const auto& arguments : commands_with_output()) {
        CAPTURE(arguments.front());
        CAPTURE(arguments.size());
        const ProcessResult result = run_with_stdout(arguments, full);
        CHECK(result.signal == 0);
        CHECK(result.exit_code == kUsage);
        CHECK(tail_line(result.err) == "famspec: error: cannot write the output to stdout: No space left on device");
    }
    close(full);
}

TEST_CASE("a closed stdout is exit 2, and famspec never writes its answer into a file it opened") {
    for (const auto& arguments : commands_with_output()) {
        CAPTURE(arguments.front());
        const ProcessResult result = run_with_stdout(arguments, -1);
        CHECK(result.signal == 0);
        CHECK(result.exit_code == kUsage);
        CHECK(tail_line(result.err) == "famspec: error: cannot write the output to stdout: Bad file descriptor");
    }
}

TEST_CASE("a reader that went away is exit 2 (EPIPE), not a silent death by SIGPIPE") {
    std::array<int, 2> fds{};
    REQUIRE(pipe2(fds.data(), O_CLOEXEC) == 0);
    close(fds[0]);
    const ProcessResult result = run_with_stdout({"list", "--plugin-path", fixture_dir("zoo_good")}, fds[1]);
    close(fds[1]);
    CHECK(result.signal == 0);
    CHECK(result.exit_code == kUsage);
    CHECK(tail_line(result.err) == "famspec: error: cannot write the output to stdout: Broken pipe");
}

TEST_CASE("a command that prints nothing on stdout does not fail on a closed stdout") {
    const ProcessResult result = run_with_stdout({"summary", "/nonexistent/plan.yaml"}, -1);
    CHECK(result.exit_code == kUsage);  // the plan error, not a write error
    CHECK(result.err.find("cannot write the output") == std::string::npos);
}

TEST_CASE("control characters in plugin file names are escaped in list and verify tables") {
    const TempDir dir;
    fs::copy_file(fixture_file("zoo_good"), dir / "famspec_\x1b[31mred.so");
    for (const char* command : {"list", "verify"}) {
        CAPTURE(command);
        const ProcessResult result = run_cli({command, "--long", "--plugin-path", dir.path().string()});
        INFO(describe(result));
        CHECK(result.exit_code == kOk);
        CHECK(result.out.find('\x1b') == std::string::npos);
        CHECK(result.err.find('\x1b') == std::string::npos);
        CHECK(result.out.find((dir / "famspec_\\x1b[31mred.so").string()) != std::string::npos);
    }
    // JSON is already safe: the name is there, escaped the JSON way.
    const ProcessResult json_list = run_cli({"list", "--json", "--plugin-path", dir.path().string()});
    CHECK(json_list.out.find("famspec_\\u001b[31mred.so") != std::string::npos);
}

TEST_CASE("control characters from a plan and its file name are escaped in messages") {
    const TempDir dir;
    const fs::path plan = dir / "plan\x1b]0;title\x07.yaml";
    std::ofstream(plan) << "model_type: qwen3_moe\nplan_overrides:\n  - match: x\n    module_type: a.B\n"
                           "    replace_module:\n      _target_: \"hyper_parallel.models.qwen3_moe.adapter.\\e[2J\"\n";
    const ProcessResult result = run_cli({"check", plan.string()});
    INFO(describe(result));
    CHECK(result.exit_code == kUsage);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: " + (dir / "plan\\x1b]0;title\\x07.yaml").string() +
                            ":6:17: '_target_': expected a dotted Python path (module.Name), found "
                            "'hyper_parallel.models.qwen3_moe.adapter.\\x1b[2J'\n");
}
