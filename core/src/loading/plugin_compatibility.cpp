#include "loading/plugin_compatibility.hpp"

#include "discovery/plugin_refusal.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"

namespace famspec::detail {
namespace {

std::string side(unsigned major, unsigned minor, std::string_view fingerprint) {
    return "ABI " + std::to_string(major) + "." + std::to_string(minor) + ", " + std::string(fingerprint);
}

// Why the claim is refused, or empty.
std::string incompatibility(const BuildClaim& claim) {
    if (claim.abi_major != kAbiMajor) return "has ABI major " + std::to_string(claim.abi_major);
    if (claim.abi_minor > kAbiMinor) return "needs a newer core (ABI minor " + std::to_string(claim.abi_minor) + ")";
    if (claim.descriptor_size < kMinDescriptorSize) {
        return "has a " + std::to_string(claim.descriptor_size) + "-byte descriptor, shorter than " +
               std::to_string(kMinDescriptorSize);
    }
    if (!claim.fingerprint) return "has no build fingerprint";
    if (const auto differences = fingerprint_differences(*claim.fingerprint, core_fingerprint());
        !differences.empty()) {
        return "has a different build fingerprint (" + joined(differences) + ")";
    }
    return {};
}

}  // namespace

std::optional<PluginError> check_compatibility(const std::string& path, PluginStage stage, const BuildClaim& claim) {
    const std::string why = incompatibility(claim);
    if (why.empty()) return std::nullopt;
    const std::string core = side(kAbiMajor, kAbiMinor, core_fingerprint());
    const std::string plugin =
        side(claim.abi_major, claim.abi_minor, claim.fingerprint ? *claim.fingerprint : "(no fingerprint)");
    return refusal(path, stage, core, plugin,
                   "plugin '" + claim.name + "' " + why + "; built for " + plugin + "; this core is " + core +
                       "; rebuild it against famspec " + std::string(core_version()) +
                       " with the same standard library and ABI flags (any compiler for them)");
}

}  // namespace famspec::detail
