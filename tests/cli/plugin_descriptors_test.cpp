// A plugin cannot take or divert famspec's stdin or its answer: a plugin that closes, reads or
// replaces stdin while it registers leaves every `resolve --batch` query answered; one that closes
// or replaces the descriptors from 3 up is named and famspec stops with status 1, its answer in no
// file; and one that forks and returns into famspec twice gets each answer printed once.
#include <doctest/doctest.h>
#include <sys/types.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cli_support.hpp"

using namespace famspec::test::cli;

namespace {

// Two queries that both resolve: exit 0 with two answers.
std::string queries() {
    const std::string query = R"({"target": ")" + kQwenNorm + R"(", "module_type": ")" + kQwenNormType + "\"}\n";
    return query + query;
}

// With `variable` naming `file` (a file the fixture writes), when given.
ProcessResult batch_with(const std::string& fixture, const std::string& variable = "", const fs::path& file = {}) {
    ProcessOptions options;
    if (!variable.empty()) options.environment[variable] = file.string();
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

// famspec resolve --batch with the plugin that forks, under a shell that stays until the copy has
// ended by itself (the test's process runner kills the group once its child exits, and the copy
// would not get to say anything).
ProcessResult batch_until_copy_ends(const fs::path& pidfile) {
    const std::string script =
        "file=$1; shift; \"$@\"; status=$?; i=0\n"
        "while [ $i -lt 1000 ]; do\n"
        "  pid=$(cat \"$file\" 2>/dev/null); state=$(cut -d')' -f2 /proc/$pid/stat 2>/dev/null | cut -c2)\n"
        "  if [ -n \"$pid\" ] && { [ -z \"$state\" ] || [ \"$state\" = Z ]; }; then break; fi\n"
        "  sleep 0.01; i=$((i + 1))\n"
        "done\n"
        "exit $status\n";
    ProcessOptions options;
    options.input = queries();
    options.environment["FAMSPEC_TEST_GRANDCHILD_PIDFILE"] = pidfile.string();
    for (const char* variable : {"FAMSPEC_PLUGIN_PATH", "FAMSPEC_ALLOW_INSECURE", "FAMSPEC_REQUIRE_DIGESTS"})
        options.environment[variable] = std::nullopt;
    return run_process({"/bin/sh", "-c", script, "sh", pidfile.string(), cli_path(), "resolve", "--batch",
                        "--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("forks_and_returns")},
                       options);
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
    const ProcessResult result = batch_with("closes_fds_opens_file", "FAMSPEC_TEST_OPENED_FILE", opened);
    INFO(describe(result));
    CHECK(result.exit_code == kFailed);
    CHECK(result.out.empty());
    CHECK(result.err == "famspec: error: plugin " + fixture_file("closes_fds_opens_file").string() +
                            " closed or replaced famspec's descriptors during open, so famspec has no sure way "
                            "to its input and output; famspec stops with status 1\n");
    CHECK(fs::exists(opened));
    CHECK(read_file(opened).empty());
}

TEST_CASE("a plugin that puts /dev/null onto the descriptors from 3 up: named, exit 1, with --json too") {
    const std::string message = "plugin " + fixture_file("null_onto_fds").string() +
                                " closed or replaced famspec's descriptors during open, so famspec has no sure "
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
    const ProcessResult result = batch_until_copy_ends(pidfile);
    INFO(describe(result));
    CHECK(result.exit_code == kOk);
    CHECK(result.out == expected.out);
    CHECK(result.err == "famspec: warning: plugin " + fixture_file("forks_and_returns").string() +
                            " forked famspec's work process during open; the copy stops here and answers "
                            "nothing\n");
    REQUIRE(fs::exists(pidfile));
    pid_t copy = 0;
    std::istringstream(read_file(pidfile)) >> copy;
    REQUIRE(copy > 0);
    CHECK_FALSE(runs(copy));

    const ProcessResult digest = run_cli({"summary", "--digest", qwen_plan(), "--plugin-path", plugin_dir(),
                                          "--plugin-path", fixture_dir("forks_and_returns")});
    CHECK(digest.exit_code == kOk);
    CHECK(digest.out.size() == std::string("sha256:").size() + 64 + 1);
}
