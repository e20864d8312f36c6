#include "loading/table_manifest.hpp"

#include <bit>

#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"

namespace famspec::detail {
namespace {

using namespace famspec::tables;

// The CP wrappers and archetypes a family, or the framework, claims. A borrowed CP wrapper claims
// nothing: the lending family's plugin does.
void claim(const BudgetedReader& read, std::span<const CpWrapperRow> wrappers, std::span<const ArchetypeRow> archetypes,
           PluginManifest& manifest) {
    for (const CpWrapperRow& wrapper : wrappers) manifest.cp_wrappers.push_back(read.text(wrapper.target));
    for (const ArchetypeRow& archetype : archetypes) {
        manifest.archetypes.push_back(
            {read.text(archetype.compute_factory),
             {std::string(name_of(archetype.router)), std::string(name_of(archetype.shared_experts)),
              std::string(name_of(archetype.expert_storage))}});
    }
}

void claim_family(const BudgetedReader& read, const FamilyRow& row, PluginManifest& manifest) {
    manifest.families.push_back({read.text(row.model_type), read.text(row.architecture), read.texts(row.aliases),
                                 read.texts(row.directory_aliases)});
    for (const FactoryRow& factory : read.rows<FactoryRow>(row.factories)) {
        manifest.factories.push_back(read.text(factory.target));
    }
    claim(read, read.rows<CpWrapperRow>(row.cp_wrappers), read.rows<ArchetypeRow>(row.archetypes), manifest);
}

}  // namespace

PluginManifest manifest_of(const TableView& view, CopyBudget& budget) {
    const BudgetedReader read(view, budget);
    const TableHeader& header = view.header();
    PluginManifest manifest;
    manifest.name = read.text(header.name);
    manifest.version = read.text(header.version);
    manifest.description = read.text(header.description);
    manifest.abi_major = header.abi_major;
    manifest.abi_minor = header.abi_minor;
    manifest.table_bytes = header.byte_size;
    // Stage compatibility accepted only tables in the host's byte order.
    manifest.fingerprint = build_fingerprint(header.abi_major, header.abi_minor, header.format, header.word_bits,
                                             std::endian::native == std::endian::big, read.text(header.compiler));
    for (const FamilyRow& family : view.families()) claim_family(read, family, manifest);
    claim(read, read.rows<CpWrapperRow>(header.cp_wrappers), read.rows<ArchetypeRow>(header.archetypes), manifest);
    for (const ComponentRow& component : view.components()) {
        manifest.components.push_back(read.text(component.import_module) + "." + read.text(component.submodule) + "." +
                                      read.text(component.name));
    }
    return normalized(std::move(manifest));
}

}  // namespace famspec::detail
