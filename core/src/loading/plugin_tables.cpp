#include "loading/plugin_tables.hpp"

#include <cstdint>

#include "discovery/plugin_refusal.hpp"
#include "registry/table_staging.hpp"

namespace famspec::detail {
namespace {

// The block must be the plugin's own constant data: a pointer into another library, the heap or a
// writable page is refused before a byte of it is read past the header.
std::optional<std::string> misplaced(const PluginDescriptor& descriptor, const LoadedSegments& memory) {
    if (reinterpret_cast<std::uintptr_t>(descriptor.tables) % alignof(tables::TableHeader) != 0 ||
        !memory.read_only_of(&descriptor, descriptor.tables, sizeof(tables::TableHeader))) {
        return "its tables do not lie in its own read-only segments";
    }
    if (!memory.read_only_of(&descriptor, descriptor.tables, descriptor.tables->byte_size)) {
        return "its tables (" + std::to_string(descriptor.tables->byte_size) +
               " bytes) run past its own read-only segments";
    }
    return std::nullopt;
}

}  // namespace

std::optional<PluginError> read_tables(const Candidate& candidate, const PluginDescriptor& descriptor,
                                       const LoadedSegments& memory, StagingRegistrar& registrar) {
    const std::string path = candidate.path.string();
    if (auto fault = misplaced(descriptor, memory)) {
        return refusal(path, PluginStage::register_, "tables in the plugin's own read-only data", *fault,
                       "refused: " + *fault);
    }
    const tables::TableView view(*descriptor.tables);
    if (auto fault = view.check()) {
        return refusal(path, PluginStage::register_, "well-formed tables", *fault,
                       "refused: its tables cannot be read: " + *fault);
    }
    try {
        stage_tables(view, registrar);
    } catch (const std::exception& error) {
        // The core's own copy failing (memory), not the plugin: still reported at this plugin.
        return refusal(path, PluginStage::register_, "its tables copied", error.what(),
                       std::string("its tables could not be copied: ") + error.what());
    }
    if (!registrar.errors().empty()) {
        const std::string all = joined(registrar.errors());
        return refusal(path, PluginStage::register_, "valid, unique declarations", all,
                       "registration rejected: " + all);
    }
    return std::nullopt;
}

}  // namespace famspec::detail
