#include "loading/plugin_preflight.hpp"

#include "discovery/plugin_refusal.hpp"
#include "discovery/plugin_trust.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/sdk/abi.hpp"
#include "loading/plugin_compatibility.hpp"

namespace famspec::detail {
namespace {

// Stage compatibility, from the manifest: decided before any byte of the plugin is mapped.
std::optional<PluginError> check_manifest_compatibility(const Candidate& candidate, const PluginManifest& m) {
    return check_compatibility(candidate.path.string(), PluginStage::compatibility,
                               {m.name, m.abi_major, m.abi_minor, m.descriptor_size, m.fingerprint});
}

}  // namespace

Expected<std::shared_ptr<const PluginManifest>, PluginError> read_manifest(const Candidate& candidate,
                                                                           bool require_manifest) {
    const std::string path = candidate.path.string();
    if (!candidate.elf.is_elf) {
        return unexpected(refusal(path, PluginStage::manifest, "an ELF shared object", candidate.elf.error,
                                  "not a loadable plugin: " + candidate.elf.error));
    }
    if (!candidate.elf.manifest) {
        if (!require_manifest) return std::shared_ptr<const PluginManifest>();
        return unexpected(refusal(path, PluginStage::manifest, std::string("a ") + kManifestSection + " section",
                                  "no such section",
                                  std::string("carries no ") + kManifestSection +
                                      " section; build it with famspec_add_plugin(), which embeds the manifest"));
    }
    ManifestParse parsed = parse_manifest(*candidate.elf.manifest);
    if (!parsed) {
        return unexpected(refusal(path, PluginStage::manifest, "a valid famspec manifest", parsed.error(),
                                  "corrupt manifest: " + parsed.error()));
    }
    return std::make_shared<const PluginManifest>(std::move(parsed).value());
}

std::vector<std::string> compatibility_notes(const PluginManifest& m) {
    std::vector<std::string> notes;
    for (const std::string& difference : fingerprint_notes(m.fingerprint, core_fingerprint())) {
        notes.push_back("plugin '" + m.name +
                        "' was built differently from this famspec, which does not change the ABI (" + difference +
                        ")");
    }
    return notes;
}

Preflight check_before_open(const Candidate& candidate, const LoadOptions& options, const StageCallback& on_stage) {
    if (auto error = check_trust(candidate, options)) return {nullptr, std::move(error), {}};
    announce(on_stage, candidate, PluginStage::manifest);
    auto manifest = read_manifest(candidate, true);
    if (!manifest) return {nullptr, std::move(manifest.error()), {}};
    auto error = check_manifest_compatibility(candidate, **manifest);
    if (error) return {*manifest, std::move(error), {}};
    return {*manifest, std::nullopt, compatibility_notes(**manifest)};
}

}  // namespace famspec::detail
