// libFuzzer harness: the contents of a plugin's table section read as the loader reads them:
// TableView::check(), then the claims and the staging under the block's copy budget. Refused whole or
// accepted, and what an accepted block makes the core copy stays within the budget's bound.
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
