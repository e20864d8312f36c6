// A plugin file cannot take famspec's stdin or make famspec wait: famspec reads only regular files,
// so a candidate that is famspec's own stdin, a FIFO or a device is refused at stage find without
// being opened, every `resolve --batch` query is still answered (with --allow-partial), and an
// answer is never given from a plugin set in which such a file was refused.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>

#include "cli_support.hpp"

using namespace famspec::test::cli;

namespace {

// Two queries that both resolve: exit 0 with two answers.
std::string queries() {
    const std::string query = R"({"target": ")" + kQwenNorm + R"(", "module_type": ")" + kQwenNormType + "\"}\n";
    return query + query;
}

ProcessResult batch(const std::vector<std::string>& plugin_dirs, bool allow_partial) {
    std::vector<std::string> arguments{"resolve", "--batch"};
    for (const auto& dir : plugin_dirs) arguments.insert(arguments.end(), {"--plugin-path", dir});
    if (allow_partial) arguments.emplace_back("--allow-partial");
    ProcessOptions options;
    options.input = queries();
    return run_cli(arguments, options);
}

std::string refused(const fs::path& file, const std::string& what) {
    return file.string() + ": refused: named like a plugin but is " + what + "; only regular files are loaded";
}

}  // namespace

TEST_CASE("a plugin file that is famspec's stdin, a FIFO or a device is refused at find, and stdin is left alone") {
    const ProcessResult expected = batch({plugin_dir()}, false);
    REQUIRE(expected.exit_code == kOk);
    REQUIRE(std::count(expected.out.begin(), expected.out.end(), '\n') == 2);

    const TempDir dir;
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec);
    REQUIRE(::mkfifo((dir / "famspec_fifo.so").c_str(), 0644) == 0);
    fs::create_symlink("/dev/stdin", dir / "famspec_stdin.so");
    fs::create_symlink("/dev/zero", dir / "famspec_zero.so");

    // Nothing is read from stdin, the FIFO or the device: the queries all reach resolve --batch.
    const ProcessResult partial = batch({plugin_dir(), dir.path().string()}, true);
    INFO(describe(partial));
    CHECK(partial.exit_code == kOk);
    CHECK(partial.out == expected.out);
    CHECK(partial.err == "famspec: warning: plugin not loaded (find): " + refused(dir / "famspec_fifo.so", "a FIFO") +
                             "\n" + "famspec: warning: plugin not loaded (find): " +
                             refused(dir / "famspec_stdin.so", "a FIFO (through a symbolic link)") + "\n" +
                             "famspec: warning: plugin not loaded (find): " +
                             refused(dir / "famspec_zero.so", "a character device (through a symbolic link)") + "\n");

    // Without --allow-partial no answer is given, and each refusal is named.
    const ProcessResult strict = batch({plugin_dir(), dir.path().string()}, false);
    INFO(describe(strict));
    CHECK(strict.exit_code == kFailed);
    CHECK(strict.out.empty());
    CHECK(strict.err.find("famspec: error: plugin not loaded (find): " + refused(dir / "famspec_fifo.so", "a FIFO") +
                          "\n") != std::string::npos);

    const json::object report = run_json({"verify", "--json", "--plugin-path", dir.path().string()}, kFailed);
    REQUIRE(plugins_of(report).size() == 3);
    for (const auto& entry : plugins_of(report)) {
        CHECK(text(entry.as_object(), "stage") == "find");
        CHECK(text(entry.as_object(), "expected") == "a regular file");
    }
    CHECK(text(entry_for(report, "famspec_fifo.so"), "found") == "a FIFO");
}

TEST_CASE("info on a FIFO or a device refuses it at find without reading it") {
    const TempDir dir;
    const fs::path fifo = dir / "famspec_fifo.so";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const ProcessResult from_fifo = run_cli({"info", fifo.string()});
    CHECK(from_fifo.exit_code == kFailed);
    CHECK(from_fifo.out.empty());
    CHECK(from_fifo.err == "famspec: find: " + refused(fifo, "a FIFO") + "\n");

    const ProcessResult from_zero = run_cli({"info", "/dev/zero"});
    CHECK(from_zero.exit_code == kFailed);
    CHECK(from_zero.err == "famspec: find: " + refused("/dev/zero", "a character device") + "\n");
}
