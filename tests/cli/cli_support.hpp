// What the CLI tests share: running famspec, reading its JSON, describing a failed run.
#pragma once

#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "process.hpp"
#include "temp_dir.hpp"

namespace famspec::test::cli {

using namespace famspec::test;  // so that `using namespace famspec::test::cli` is enough
namespace fs = std::filesystem;
namespace json = boost::json;

inline const std::string kQwenNorm = "hyper_parallel.models.qwen3_moe.adapter.replacements.replace_qwen3_moe_rms_norm";
inline const std::string kQwenNormType = "transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeRMSNorm";

// A whole file, byte for byte; empty when it cannot be read.
inline std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::string qwen_plan() { return source_dir() + "/examples/plans/qwen3_moe.yaml"; }

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

inline std::string describe(const ProcessResult& result) {
    return "exit " + std::to_string(result.exit_code) + " signal " + std::to_string(result.signal) + "\nstdout:\n" +
           result.out + "\nstderr:\n" + result.err;
}

// Runs the CLI and parses its JSON output, which must be one object.
inline json::object run_json(const std::vector<std::string>& arguments, int expected_exit,
                             ProcessOptions options = {}) {
    const ProcessResult result = run_cli(arguments, std::move(options));
    INFO(describe(result));
    REQUIRE(result.signal == 0);
    REQUIRE(result.exit_code == expected_exit);
    boost::system::error_code ec;
    json::value value = json::parse(result.out, ec);
    REQUIRE_MESSAGE(!ec, "not JSON: " << ec.message());
    REQUIRE(value.is_object());
    return value.as_object();
}

inline const json::array& plugins_of(const json::object& report) {
    REQUIRE(report.contains("plugins"));
    return report.at("plugins").as_array();
}

// The one entry whose path ends with the file name.
inline const json::object& entry_for(const json::object& report, const std::string& file_name) {
    for (const auto& entry : plugins_of(report)) {
        if (fs::path(std::string(entry.at("path").as_string())).filename() == file_name) return entry.as_object();
    }
    FAIL("no entry for " << file_name << " in " << json::serialize(report));
    throw std::logic_error("unreachable");
}

inline std::string text(const json::object& object, const char* key) {
    REQUIRE_MESSAGE(object.contains(key), "no key " << key << " in " << json::serialize(object));
    const json::value& value = object.at(key);
    return value.is_null() ? "null" : std::string(value.as_string());
}

// status/stage of the single plugin a `list` or `verify` over one fixture directory reports.
inline std::string outcome(const json::object& report) {
    const auto& plugins = plugins_of(report);
    REQUIRE(plugins.size() == 1);
    const auto& entry = plugins[0].as_object();
    return text(entry, "status") + "/" + text(entry, "stage");
}

}  // namespace famspec::test::cli
