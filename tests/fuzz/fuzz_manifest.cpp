// libFuzzer harness for parse_manifest: any bytes give a manifest or an error, and an accepted
// manifest reads back unchanged from its canonical JSON.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "famspec/plugin_manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const famspec::ManifestParse parsed = famspec::parse_manifest(text);
    if (!parsed && parsed.error().empty()) std::abort();  // a refusal says why
    if (parsed) {
        const famspec::ManifestParse again = famspec::parse_manifest(famspec::to_json(*parsed));
        if (!again || !(*again == *parsed)) std::abort();
    }
    return 0;
}
