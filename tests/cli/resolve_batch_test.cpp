// famspec resolve --batch as every answering command: no answer from a plugin set in which a plugin
// failed (unless --allow-partial), a stdin that cannot be read is an error and not the end of the
// input, and a query's diagnostics are in its answer, as a single resolve notes them.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli_support.hpp"

using namespace famspec::test::cli;

namespace {

std::string norm_query(const std::string& options = "{}") {
    return R"({"target": ")" + kQwenNorm + R"(", "module_type": ")" + kQwenNormType + R"(", "options": )" + options +
           "}\n";
}

std::vector<std::string> lines_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

const std::string kPartial =
    "famspec: error: not every plugin loaded, so no answer is given; fix the plugins above, or pass --allow-partial "
    "to answer from the plugins that did load\n";

}  // namespace

TEST_CASE("resolve --batch with a plugin that failed answers nothing and exits 1, as resolve --target does") {
    ProcessOptions input;
    input.input = norm_query();
    const std::vector<std::string> plugins{"--plugin-path", plugin_dir(), "--plugin-path", fixture_dir("bad_magic")};
    std::vector<std::string> batch{"resolve", "--batch"};
    batch.insert(batch.end(), plugins.begin(), plugins.end());
    const ProcessResult refused = run_cli(batch, input);
    INFO(describe(refused));
    CHECK(refused.exit_code == kFailed);
    CHECK(refused.out.empty());
    CHECK(refused.err == "famspec: error: plugin not loaded (compatibility): " + fixture_file("bad_magic").string() +
                             ": its .famspec_tables section does not begin with famspec's table magic: not a famspec "
                             "plugin\n" +
                             kPartial);

    std::vector<std::string> single{"resolve", "--target", kQwenNorm, "--module-type", kQwenNormType};
    single.insert(single.end(), plugins.begin(), plugins.end());
    const ProcessResult one = run_cli(single);
    CHECK(one.exit_code == kFailed);
    CHECK(one.out.empty());
    CHECK(one.err == refused.err);

    batch.push_back("--allow-partial");
    const ProcessResult partial = run_cli(batch, input);
    INFO(describe(partial));
    CHECK(partial.exit_code == kOk);
    REQUIRE(lines_of(partial.out).size() == 1);
    CHECK(json::parse(partial.out).at("status") == "resolved");
}

TEST_CASE("resolve --batch with stdin a directory or closed is an error, not an empty input") {
    const int directory = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(directory >= 0);
    ProcessOptions from_directory;
    from_directory.descriptors = {{0, directory}};
    const ProcessResult read_directory = run_cli({"resolve", "--batch"}, from_directory);
    ::close(directory);
    INFO(describe(read_directory));
    CHECK(read_directory.exit_code == kUsage);
    CHECK(read_directory.out.empty());
    CHECK(read_directory.err == "famspec: stdin is a directory: give the queries on stdin, one JSON object a line\n");

    ProcessOptions closed;
    closed.descriptors = {{0, -1}};
    const ProcessResult read_closed = run_cli({"resolve", "--batch", "--json"}, closed);
    INFO(describe(read_closed));
    CHECK(read_closed.exit_code == kUsage);
    CHECK(read_closed.out == R"({"error":{"column":null,"file":"<stdin>","kind":"input","line":null,)"
                             R"("message":"stdin is closed: give the queries on stdin, one JSON object a line"}})"
                             "\n");
    CHECK(read_closed.err == "famspec: stdin is closed: give the queries on stdin, one JSON object a line\n");

    // An empty stdin is no error: no queries, no answers.
    const ProcessResult empty = run_cli({"resolve", "--batch"});
    CHECK(empty.exit_code == kOk);
    CHECK(empty.out.empty());
}

TEST_CASE("resolve --batch gives a query's diagnostics, an ignored option as resolve reports it") {
    ProcessOptions input;
    input.input = norm_query(R"({"epps": 1e-06})") + norm_query();
    const ProcessResult result = run_cli({"resolve", "--batch"}, input);
    INFO(describe(result));
    CHECK(result.exit_code == kOk);  // an ignored option is a diagnostic: the spec stands
    const std::vector<std::string> answers = lines_of(result.out);
    REQUIRE(answers.size() == 2);

    const ProcessResult single =
        run_cli({"resolve", "--target", kQwenNorm, "--module-type", kQwenNormType, "--option", "epps=1e-06"});
    REQUIRE(single.exit_code == kOk);
    const std::string note = "famspec: diagnostic: ignored_option: ";
    REQUIRE(single.err.starts_with(note));
    const std::string message = single.err.substr(note.size(), single.err.size() - note.size() - 1);

    const json::object tuned = json::parse(answers[0]).as_object();
    CHECK(tuned.at("status") == "resolved");
    CHECK(json::serialize(tuned.at("spec")) + "\n" == single.out);
    const json::array& diagnostics = tuned.at("diagnostics").as_array();
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0].at("kind") == "ignored_option");
    CHECK(std::string(diagnostics[0].at("message").as_string()) == message);
    CHECK(json::parse(answers[1]).at("diagnostics").as_array().empty());
    CHECK(result.err == "famspec: <stdin>:1: diagnostic: ignored_option: " + message + "\n");

    // Under --strict the diagnostic makes the target not covered, as for a single resolve.
    const ProcessResult strict = run_cli({"resolve", "--batch", "--strict"}, input);
    CHECK(strict.exit_code == kFailed);
    CHECK(json::parse(lines_of(strict.out).at(0)).at("status") == "not_covered");
}
