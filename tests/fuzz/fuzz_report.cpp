// libFuzzer harness: verify's report parser on the bytes a plugin's child could write to fd 3.
// Aborts on any broken contract (harness_results.hpp); exceptions are not caught on purpose.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string violation;
    famspec::fuzz::report_answer(std::string(reinterpret_cast<const char*>(data), size), violation);
    if (!violation.empty()) std::abort();
    return 0;
}
