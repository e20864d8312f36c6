// libFuzzer harness: load_plugins on one plugin file, the input: read, checked for compatibility,
// its tables checked, claimed and staged, or refused with its stage, never run.
// Aborts on any broken contract (harness_results.hpp); exceptions are not caught on purpose.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_input_file.hpp"
#include "harness_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    famspec::fuzz::write_input(data, size);
    std::string violation;
    famspec::fuzz::loader_answer(famspec::fuzz::input_path(), violation);
    if (!violation.empty()) std::abort();
    return 0;
}
