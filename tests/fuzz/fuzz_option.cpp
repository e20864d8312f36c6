// libFuzzer harness: each line of the input as one `--option name=value` (core parse_option).
// Aborts on any broken contract (harness_results.hpp); exceptions are not caught on purpose.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "famspec/plan_option.hpp"
#include "harness_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string violation;
    famspec::fuzz::option_answer(std::string(reinterpret_cast<const char*>(data), size), violation);
    if (!violation.empty()) std::abort();
    return 0;
}
