// libFuzzer harness: a plan all the way through resolution, the summary and the digest, on the
// shipped plugins (loaded once). A resolver with a small cache is kept from input to input, so that
// eviction and cache hits are exercised too. Aborts on any broken contract (harness_results.hpp).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "famspec/plugin_loader.hpp"
#include "harness_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const auto registry = [] {
        famspec::LoadOptions options;
        options.directories = {FAMSPEC_FUZZ_PLUGIN_DIR};
        auto loaded = famspec::load_plugins(options);
        if (!loaded->all_ok()) std::abort();  // a harness without the families would fuzz nothing
        return loaded;
    }();
    static const famspec::Resolver warm(registry, [] {
        famspec::ResolverOptions options;
        options.cache_capacity = 64;
        return options;
    }());
    std::string violation;
    famspec::fuzz::resolution_answer(std::string(reinterpret_cast<const char*>(data), size), registry, warm, violation);
    if (!violation.empty()) std::abort();
    return 0;
}
