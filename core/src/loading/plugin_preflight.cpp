#include "loading/plugin_preflight.hpp"

#include "discovery/plugin_refusal.hpp"
#include "discovery/plugin_trust.hpp"
#include "famspec/sdk/abi.hpp"
#include "loading/plugin_compatibility.hpp"

namespace famspec::detail {
namespace {

// The smallest header of any ABI: magic, ABI major and minor, header size.
constexpr std::size_t kHeaderPrefix = 16;

// Stage manifest: the file is an ELF shared object with a table section long enough to say its ABI.
std::optional<PluginError> check_table_section(const Candidate& candidate) {
    const std::string path = candidate.path.string();
    if (!candidate.elf.is_elf) {
        return refusal(path, PluginStage::manifest, "an ELF shared object", candidate.elf.error,
                       "not a readable plugin: " + candidate.elf.error);
    }
    if (!candidate.elf.tables) {
        if (candidate.elf.legacy_manifest) {
            return refusal(path, PluginStage::manifest,
                           std::string("a ") + kTableSection + " section (ABI " + std::to_string(kAbiMajor) + ")",
                           std::string("a ") + kLegacyManifestSection + " section (ABI 4 or older)",
                           std::string("is a plugin of ABI 4 or older (it carries ") + kLegacyManifestSection +
                               " and no " + kTableSection + "); this core reads ABI " + std::to_string(kAbiMajor) +
                               "." + std::to_string(kAbiMinor) + ": rebuild it with famspec_add_plugin()");
        }
        return refusal(path, PluginStage::manifest, std::string("a ") + kTableSection + " section", "no such section",
                       std::string("carries no ") + kTableSection +
                           " section: not a famspec plugin; build it with famspec_add_plugin()");
    }
    if (candidate.elf.tables->size < kHeaderPrefix) {
        const std::string found = std::to_string(candidate.elf.tables->size) + " bytes";
        return refusal(path, PluginStage::manifest, "at least " + std::to_string(kHeaderPrefix) + " bytes", found,
                       std::string("its ") + kTableSection + " section is " + found + ", too short for a header");
    }
    return std::nullopt;
}

}  // namespace

std::optional<PluginError> check_before_reading(const Candidate& candidate, const LoadOptions& options,
                                                const StageCallback& on_stage) {
    if (auto error = check_trust(candidate, options)) return error;
    announce(on_stage, candidate, PluginStage::manifest);
    // What was read (the tables at find, the digest at trust) is this file only if it did not change
    // meanwhile: a file rewritten in place is refused; one renamed over it is another file.
    if (const std::string changed = candidate.file.changes_since_open(); !changed.empty()) {
        return refusal(candidate.path.string(), PluginStage::manifest, "the file as it was opened", changed,
                       "refused: the file changed while it was being read (" + changed +
                           "); deploy a plugin by writing a new file and renaming it into place");
    }
    if (auto error = check_table_section(candidate)) return error;
    announce(on_stage, candidate, PluginStage::compatibility);
    return check_compatibility(candidate);
}

}  // namespace famspec::detail
