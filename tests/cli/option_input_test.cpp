// `--option name=value` from the command line: the inputs that hung yaml-cpp's LoadAll, and values
// that are not one scalar, are usage errors with the option named, and nothing reaches stdout.
#include "cli_support.hpp"

using namespace famspec::test::cli;

TEST_CASE("an --option that is not one YAML scalar is a usage error naming it, with nothing on stdout") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"x=,", "famspec: bad --option 'x=,': not valid YAML: unexpected ','\n"},
        {"x=,d", "famspec: bad --option 'x=,d': not valid YAML: unexpected ','\n"},
        {"x=[1]",
         "famspec: bad --option 'x=[1]': option 'x': expected a scalar (bool, number, string or null), "
         "found a list\n"},
        {"2x=1",
         "famspec: bad --option '2x=1': expected name=value with a Python identifier as the name, found "
         "'2x=1'\n"},
    };
    for (const auto& [option, message] : cases) {
        CAPTURE(option);
        const auto result =
            run_cli({"resolve", "--target", kQwenNorm, "--module-type", kQwenNormType, "--option", option});
        CHECK(result.exit_code == kUsage);
        CHECK(result.out.empty());
        CHECK(result.err == message);
    }
}
