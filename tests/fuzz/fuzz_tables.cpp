// libFuzzer harness: a plugin's block of tables (ABI 4.0) read as the loader reads it: checked whole,
// then copied into a registry's staging.
// Aborts on any broken contract (harness_results.hpp); exceptions are not caught on purpose.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string violation;
    famspec::fuzz::tables_answer(std::string(reinterpret_cast<const char*>(data), size), violation);
    if (!violation.empty()) std::abort();
    return 0;
}
