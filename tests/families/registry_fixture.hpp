// The registry of every shipped plugin, loaded once per test program from the build's plugin directory.
#pragma once

#include <memory>

#include "famspec/plugin_loader.hpp"
#include "process.hpp"

namespace famspec::test {

inline const std::shared_ptr<const Registry>& shipped_registry() {
    static const std::shared_ptr<const Registry> registry = [] {
        LoadOptions options;
        options.directories = {plugin_dir()};
        return load_plugins(options);
    }();
    return registry;
}

}  // namespace famspec::test
