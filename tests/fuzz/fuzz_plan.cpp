// libFuzzer harness for parse_plan_text: any bytes give a plan or an error, and nothing escapes.
// Exceptions are not caught here on purpose: the parser promises to return every error as a value.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "famspec/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const famspec::PlanParse parsed = famspec::parse_plan_text(text, "fuzz.yaml");
    // A refusal says why.
    if (!parsed && (parsed.error().errors.empty() || parsed.error().first().message.empty())) std::abort();
    return 0;
}
