#include "registry/table_staging.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "famspec/registry_entries.hpp"

namespace famspec::detail {
namespace {

using namespace famspec::tables;

// Copies rows into the core's declarations (the plain types of registry_entries.hpp), each string and row charged to
// the plugin's budget.
class Reader : public BudgetedReader {
public:
    using BudgetedReader::BudgetedReader;

    // The declaration's own `where`, or its position when it has none (built only then: sync writes a
    // `where` for every declaration, and this runs for each one of every load). A position names the
    // family, so it is charged like any copy, and so is the message that may quote it.
    template <class Position>
    std::string where(Text at, Position position) const {
        std::string site = at.size > 0 ? text(at) : position();
        charge(site.size() * (at.size > 0 ? 1 : 2));
        return site;
    }

    PyLiteral literal(const LiteralRow& row) const {
        switch (row.kind) {
            case LiteralKind::boolean:
                return PyLiteral(row.integer != 0);
            case LiteralKind::integer:
                return PyLiteral(row.integer);
            case LiteralKind::real:
                return PyLiteral(row.real);
            case LiteralKind::string:
                return PyLiteral(text(row.string));
            case LiteralKind::none:
                break;
        }
        return PyLiteral(none);
    }
    Default fallback(const ParameterRow& row) const {
        switch (row.default_kind) {
            case Default::Kind::literal:
                return Default::literal(literal(row.literal));
            case Default::Kind::expression:
                return Default::expression(text(row.expression));
            case Default::Kind::required:
                break;
        }
        return Default::required();
    }
    std::vector<Parameter> parameters(Range at) const {
        std::vector<Parameter> out;
        for (const ParameterRow& row : rows<ParameterRow>(at)) {
            std::vector<PyLiteral> allowed;
            for (const LiteralRow& value : rows<LiteralRow>(row.allowed)) allowed.push_back(literal(value));
            out.push_back({text(row.name), row.kind, fallback(row), std::move(allowed)});
        }
        return out;
    }
    std::vector<SourceBlock> blocks(Range at) const {
        std::vector<SourceBlock> out;
        for (const SourceBlockRow& row : rows<SourceBlockRow>(at)) {
            out.push_back({texts(row.defines), texts(row.needs), texts(row.imports), text(row.text)});
        }
        return out;
    }

    // The three runtime parameters every @module_replacement factory takes come first; the table
    // holds only the options after them.
    ReplacementFactory factory(const std::string& family, const FactoryRow& row) const {
        ReplacementFactory data{
            .family = family,
            .target = text(row.target),
            .parameters = {{"module", ParameterKind::positional_or_keyword, Default::required()},
                           {"module_fqn", ParameterKind::positional_or_keyword, Default::literal("")},
                           {"context", ParameterKind::positional_or_keyword, Default::literal(none)}},
            .construction = std::nullopt,
            .runtime_only_reason = text(row.runtime_only_reason)};
        for (Parameter& option : parameters(row.options)) data.parameters.push_back(std::move(option));
        if (row.constructs != 0) {
            Construction built{text(row.component), text(row.import_module), row.mode, row.module_positional != 0, {}};
            for (const ArgumentRow& argument : rows<ArgumentRow>(row.arguments)) {
                built.arguments.push_back({text(argument.keyword), argument.binding, text(argument.value)});
            }
            data.construction = std::move(built);
        }
        return data;
    }
    // The words stay typed: TableView::check() proved each one known.
    MoeArchetype archetype(const std::string& family, const ArchetypeRow& row) const {
        return {.family = family,
                .fingerprint = {row.router, row.shared_experts, row.expert_storage},
                .kind = row.kind,
                .target_class = text(row.target_class),
                .router_kind = row.router_kind,
                .shared = row.shared,
                .strip_boundary_subpatterns = texts(row.strip_boundary_subpatterns),
                .compute_factory = text(row.compute_factory),
                .options = parameters(row.options)};
    }
};

// A family's CP wrappers and archetypes, or the framework's when `family` is empty.
void stage_strategies(const Reader& read, const std::string& family, std::span<const CpWrapperRow> wrappers,
                      std::span<const ArchetypeRow> archetypes, StagingRegistrar& registrar) {
    const std::string owner = family.empty() ? "the framework" : "family " + family;
    std::size_t position = 0;
    for (const CpWrapperRow& wrapper : wrappers) {
        ++position;
        read.charge(family.size());
        const std::string at =
            read.where(wrapper.where, [&] { return owner + ", CP wrapper " + std::to_string(position); });
        registrar.add_cp_wrapper(
            {.family = family, .target = read.text(wrapper.target), .options = read.parameters(wrapper.options)}, at);
    }
    position = 0;
    for (const ArchetypeRow& archetype : archetypes) {
        ++position;
        read.charge(family.size());
        const std::string at =
            read.where(archetype.where, [&] { return owner + ", archetype " + std::to_string(position); });
        registrar.add_archetype(read.archetype(family, archetype), at);
    }
}

// The family, its providers, then its declarations: a provider must be known before a factory is checked.
void stage_family(const Reader& read, const FamilyRow& row, StagingRegistrar& registrar) {
    const std::string family = read.text(row.model_type);
    const std::string where = read.where(row.where, [&] { return "family " + family; });
    registrar.add_family({.model_type = family,
                          .architecture = read.text(row.architecture),
                          .aliases = read.texts(row.aliases),
                          .directory_aliases = read.texts(row.directory_aliases),
                          .interface_blocks = read.blocks(row.interface_blocks),
                          .compute_functions = read.texts(row.compute_functions)},
                         where);
    for (const std::string& provider : read.texts(row.providers))
        registrar.add_provider_module(family, provider, where);
    std::size_t position = 0;
    for (const FactoryRow& factory : read.rows<FactoryRow>(row.factories)) {
        ++position;
        read.charge(family.size());
        const std::string at =
            read.where(factory.where, [&] { return "family " + family + ", factory " + std::to_string(position); });
        registrar.add_factory(read.factory(family, factory), at);
    }
    stage_strategies(read, family, read.rows<CpWrapperRow>(row.cp_wrappers), read.rows<ArchetypeRow>(row.archetypes),
                     registrar);
}

void stage_component(const Reader& read, const ComponentRow& row, StagingRegistrar& registrar) {
    const std::string name = read.text(row.name);
    const std::string package = read.text(row.import_module);
    registrar.add_component({.name = name,
                             .import_module = package,
                             .defining_module = package + "." + read.text(row.submodule),
                             .parameters = read.parameters(row.signature),
                             .source = read.blocks(row.source)},
                            read.where(row.where, [&] { return "component " + name; }));
}

}  // namespace

void stage_tables(const TableView& view, CopyBudget& budget, StagingRegistrar& registrar) {
    const Reader read(view, budget);
    for (const FamilyRow& family : view.families()) stage_family(read, family, registrar);
    for (const ComponentRow& component : view.components()) stage_component(read, component, registrar);
    const TableHeader& header = view.header();
    stage_strategies(read, {}, read.rows<CpWrapperRow>(header.cp_wrappers), read.rows<ArchetypeRow>(header.archetypes),
                     registrar);
    // After every family and CP wrapper of the plugin: a borrowed wrapper names one of its families,
    // and none of its own wrappers.
    std::size_t position = 0;
    for (const BorrowedCpWrapperRow& borrowed : view.borrowed_cp_wrappers()) {
        ++position;
        const std::string family = read.text(borrowed.family);
        registrar.add_borrowed_cp_wrapper(family, read.text(borrowed.target), read.where({}, [&] {
            return "family " + family + ", borrowed CP wrapper " + std::to_string(position);
        }));
    }
}

}  // namespace famspec::detail
