// famspec-manifest: the build step that gives every plugin a manifest derived from its registration.
//
//   famspec-manifest generate PLUGIN.so -o OUT.json [--allow-incompatible]
//                                                     load the plugin, record what it registers
//   famspec-manifest template IN.json -o OUT.json     fill @CORE_*@ placeholders (test fixtures)
//
// A plugin this famspec would refuse (another ABI, compiler or build flags) fails its own build,
// unless --allow-incompatible: then the manifest records the descriptor only and the refusal comes
// at load. A plugin that registers nothing builds, with a warning.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "exit_guard.hpp"
#include "famspec/elf_file.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/plugin_manifest.hpp"
#include "famspec/sdk/abi.hpp"

namespace {

int usage() {
    std::cerr << "usage: famspec-manifest generate PLUGIN -o OUT [--allow-incompatible] | famspec-manifest template IN "
                 "-o OUT\n";
    return 2;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

// Why the loader would refuse this manifest text, or empty: the build fails now rather than every
// job that loads the plugin later.
std::string refusal_of(const std::string& plugin, const famspec::PluginManifest& manifest, const std::string& text) {
    if (text.size() > famspec::kMaxManifestBytes) {
        return plugin + ": its manifest is " + std::to_string(text.size()) + " bytes, over the loader's limit of " +
               std::to_string(famspec::kMaxManifestBytes) +
               " bytes (factories: " + std::to_string(manifest.factories.size()) +
               ", families: " + std::to_string(manifest.families.size()) +
               ", components: " + std::to_string(manifest.components.size()) +
               ", CP wrappers: " + std::to_string(manifest.cp_wrappers.size()) +
               ", archetypes: " + std::to_string(manifest.archetypes.size()) +
               "); famspec would refuse the plugin: split its declarations into several plugins";
    }
    if (const auto parsed = famspec::parse_manifest(text); !parsed) {
        return plugin + ": famspec would refuse its manifest: " + parsed.error();
    }
    return {};
}

int generate(const std::string& input, const std::string& output, bool allow_incompatible) {
    // A plugin that calls exit() from a static initialiser, when it is opened, would otherwise end the
    // build step silently (a plugin of tables runs no other code).
    const auto generated = [&] {
        famspec::cli::ExitGuard::entering(input, famspec::PluginStage::open);
        const famspec::cli::ExitGuard guard;
        return famspec::generate_manifest(input);
    }();
    if (generated.descriptor_only && !allow_incompatible) {
        std::cerr << "famspec-manifest: error: " << generated.error->message
                  << "\nfamspec-manifest: error: famspec would refuse this plugin at load; build it with the "
                     "standard library and ABI flags famspec was built with (`famspec --version` prints them; any "
                     "compiler for them will do), or configure "
                     "with -DFAMSPEC_ALLOW_INCOMPATIBLE_PLUGINS=ON to build it anyway\n";
        return 1;
    }
    if (generated.descriptor_only) {
        std::cerr << "famspec-manifest: warning: " << generated.error->message
                  << "\nfamspec-manifest: warning: the manifest records the descriptor only; famspec will "
                     "refuse this plugin until it is rebuilt\n";
    }
    for (const std::string& note : generated.notes)
        std::cerr << "famspec-manifest: note: " << input << ": " << note << "\n";
    if (generated.manifest && !generated.descriptor_only && generated.manifest->registers_nothing()) {
        std::cerr << "famspec-manifest: warning: plugin '" << generated.manifest->name << "' (" << input
                  << ") registers nothing: its entry point adds no family, factory, archetype, CP wrapper or "
                     "component\n";
    }
    if (!generated.manifest) {
        std::cerr << "famspec-manifest: " << (generated.error ? generated.error->message : input + ": cannot be read")
                  << "\n";
        return 1;
    }
    const std::string text = famspec::to_json(*generated.manifest);
    if (const std::string refused = refusal_of(input, *generated.manifest, text); !refused.empty()) {
        std::cerr << "famspec-manifest: " << refused << "\n";
        return 1;
    }
    if (!write_file(output, text)) {
        std::cerr << "famspec-manifest: cannot write " << output << "\n";
        return 1;
    }
    return 0;
}

int run(int argc, char** argv) {
    if (argc < 5 || argc > 6 || std::string(argv[3]) != "-o") return usage();
    const std::string mode = argv[1];
    const std::string input = argv[2];
    const std::string output = argv[4];
    const bool allow_incompatible = argc == 6 && std::string(argv[5]) == "--allow-incompatible";
    if (argc == 6 && (!allow_incompatible || mode != "generate")) return usage();
    if (mode == "generate") return generate(input, output, allow_incompatible);
    if (mode == "template") {
        std::ifstream in(input, std::ios::binary);
        if (!in) {
            std::cerr << "famspec-manifest: cannot read " << input << "\n";
            return 1;
        }
        std::stringstream buffer;
        buffer << in.rdbuf();
        std::string text = buffer.str();
        replace_all(text, "@CORE_FINGERPRINT@", std::string(famspec::core_fingerprint()));
        replace_all(text, "@CORE_ABI_MAJOR@", std::to_string(famspec::kAbiMajor));
        replace_all(text, "@CORE_ABI_MINOR@", std::to_string(famspec::kAbiMinor));
        replace_all(text, "@CORE_DESCRIPTOR_SIZE@", std::to_string(famspec::kMinDescriptorSize));
        if (!write_file(output, text)) {
            std::cerr << "famspec-manifest: cannot write " << output << "\n";
            return 1;
        }
        return 0;
    }
    return usage();
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << "famspec-manifest: " << error.what() << "\n";
        return 1;
    }
}
