// A plugin cannot take or divert famspec's stdin or its answer: a plugin that closes, reads or
// replaces stdin while it registers leaves every `resolve --batch` query answered; one that closes
// or replaces the descriptors from 3 up is named and famspec stops with status 1, its answer in no
// file; and one that forks and returns into famspec twice gets each answer printed once.
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_support.hpp"

using namespace famspec::test::cli;

namespace {

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Two queries that both resolve: exit 0 with two answers.
std::string queries() {
    const std::string query = R"({"target": ")" + kQwenNorm + R"(", "module_type": ")" + kQwenNormType + "\"}\n";
    return query + query;
}

ProcessResult batch_with(const std::string& fixture, ProcessOptions options = {}) {
    options.input = queries();
    return run_cli({"resolve", "--batch", "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir(fixture)},
                   std::move(options));
}

ProcessResult batch_without_fixture() {
    ProcessOptions options;
    options.input = queries();
    return run_cli({"resolve", "--batch", "--plugin-path", plugin_dir()}, options);
}

// Whether `pid` still runs (a zombie waiting to be reaped does not).
bool runs(pid_t pid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const std::size_t paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

}  // namespace

TEST_CASE("a plugin that closes, reads or replaces stdin while it registers: every batch query is answered") {
    const ProcessResult expected = batch_without_fixture();
    REQUIRE(expected.exit_code == kOk);
    REQUIRE(std::count(expected.out.begin(), expected.out.end(), '\n') == 2);
    for (const std::string fixture : {"closes_stdin", "reads_stdin", "null_onto_stdin"}) {
        CAPTURE(fixture);
        const ProcessResult result = batch_with(fixture);
        INFO(describe(result));
        CHECK(result.exit_code == kOk);
        CHECK(result.out == expected.out);
    }
}

TEST_CASE("a plugin that closes the descriptors from 3 up and opens a file: named, exit 1, the file holds no answer") {
    TempDir dir;
    const fs::path opened = dir / "opened";
    ProcessOptions options;
    options.environment["FAMSPEC_TEST_OPENED_FILE"] = opened.string();
    const ProcessResult result = batch_with("closes_fds_opens_file", options);
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: error: plugin " + fixture_file("closes_fds_opens_file").string() +
                            " closed or replaced famspec's descriptors during register, so famspec has no sure way "
                            "to its input and output; famspec stops with status 1\n");
    CHECK(fs::exists(opened));
    CHECK(read_file(opened).empty());
}

TEST_CASE("a plugin that puts /dev/null onto the descriptors from 3 up: named, exit 1, with --json too") {
    const std::string message = "plugin " + fixture_file("null_onto_fds").string() +
                                " closed or replaced famspec's descriptors during register, so famspec has no sure "
                                "way to its input and output; famspec stops with status 1";
    const ProcessResult result = batch_with("null_onto_fds");
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: error: " + message + "\n");

    const json::object error = run_json({"summary", "--digest", qwen_plan(), "--json", "--plugin-path", plugin_dir(),
                                         "--plugin-path", fixture_dir("null_onto_fds")},
                                        kFailed)
                                   .at("error")
                                   .as_object();
    CHECK(text(error, "kind") == "plugin_descriptors");
    CHECK(text(error, "message") == message);
}

TEST_CASE("a plugin that forks and returns in both processes: each answer is printed once, the copy is gone") {
    const ProcessResult expected = batch_without_fixture();
    TempDir dir;
    const fs::path pidfile = dir / "copy";
    ProcessOptions options;
    options.environment["FAMSPEC_TEST_GRANDCHILD_PIDFILE"] = pidfile.string();
    const ProcessResult result = batch_with("forks_and_returns", options);
    INFO(describe(result));
    CHECK(result.exit_code == kOk);
    CHECK(result.out == expected.out);
    CHECK(result.err.find("famspec: warning: plugin " + fixture_file("forks_and_returns").string() +
                          " forked famspec's work process during register; the copy stops here and answers "
                          "nothing\n") != std::string::npos);
    REQUIRE(fs::exists(pidfile));
    pid_t copy = 0;
    std::istringstream(read_file(pidfile)) >> copy;
    REQUIRE(copy > 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (runs(copy) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK_FALSE(runs(copy));

    const ProcessResult digest = run_cli({"summary", "--digest", qwen_plan(), "--plugin-path", plugin_dir(),
                                          "--plugin-path", fixture_dir("forks_and_returns")});
    CHECK(digest.exit_code == kOk);
    CHECK(digest.out.size() == std::string("sha256:").size() + 64 + 1);
}
