#include "loading/plugin_tables.hpp"

#include "discovery/plugin_refusal.hpp"
#include "registry/table_manifest.hpp"
#include "registry/table_staging.hpp"

namespace famspec::detail {
namespace {

PluginError budget_refusal(const Candidate& candidate, const CopyBudgetExceeded& exceeded) {
    return refusal(candidate.path.string(), PluginStage::register_,
                   "tables that copy into at most " + std::to_string(kCopyMultiple) + " times their size",
                   exceeded.what(), std::string("refused: ") + exceeded.what());
}

}  // namespace

Expected<ReadTables, PluginError> read_tables(const Candidate& candidate) {
    const std::string path = candidate.path.string();
    const TableSection& section = *candidate.elf.tables;
    const tables::TableView view(*static_cast<const tables::TableHeader*>(section.data()), section.size);
    if (auto fault = view.check()) {
        return unexpected(refusal(path, PluginStage::register_, "well-formed tables", *fault,
                                  "refused: its tables cannot be read: " + *fault));
    }
    CopyBudget budget(view.header().byte_size);
    try {
        auto manifest = std::make_shared<const PluginManifest>(manifest_of(view, budget));
        return ReadTables{view, std::move(manifest), budget};
    } catch (const CopyBudgetExceeded& exceeded) {
        return unexpected(budget_refusal(candidate, exceeded));
    }
}

std::optional<PluginError> stage_declarations(const Candidate& candidate, ReadTables& tables,
                                              StagingRegistrar& registrar) {
    const std::string path = candidate.path.string();
    try {
        stage_tables(tables.view, tables.budget, registrar);
    } catch (const CopyBudgetExceeded& exceeded) {
        return budget_refusal(candidate, exceeded);
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
