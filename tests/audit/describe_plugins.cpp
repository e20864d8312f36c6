// Test helper: writes the registry description of the plugins in one directory to a file, for the
// audit's pytest suite (which then needs no Python extension to know what the plugins declare).
#include <fstream>
#include <iostream>

#include "famspec/plugin_loader.hpp"
#include "famspec/registry_description.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: famspec-describe-plugins PLUGIN_DIR OUTPUT_JSON\n";
        return 2;
    }
    famspec::LoadOptions options;
    options.directories.emplace_back(argv[1]);
    const auto registry = famspec::load_plugins(options);
    if (!registry->all_ok()) {
        std::cerr << "famspec-describe-plugins: a plugin in " << argv[1] << " failed to load\n";
        return 1;
    }
    std::ofstream(argv[2], std::ios::binary) << famspec::describe_registry_json(*registry) << "\n";
    return 0;
}
