// The registration surface the core hands to a plugin's entry point.
#pragma once

#include <memory>
#include <string_view>

#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/export.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/replacement_factory.hpp"

namespace famspec {

// Owned by the core. A plugin adds declarations only from inside its register function; the core
// records them, checks them, and makes them visible only if the whole registration succeeds.
// `where` names the declaration site ("file:line") for duplicate reports.
class FAMSPEC_API Registrar {
public:
    virtual ~Registrar();

    virtual void add_family(std::shared_ptr<const FamilyAdapter> family, std::string_view where) = 0;
    virtual void add_factory(std::shared_ptr<const ReplacementFactory> factory, std::string_view where) = 0;
    virtual void add_archetype(std::shared_ptr<const MoeArchetype> archetype, std::string_view where) = 0;
    virtual void add_cp_wrapper(std::shared_ptr<const CpWrapper> wrapper, std::string_view where) = 0;
    virtual void add_component(std::shared_ptr<const Component> component, std::string_view where) = 0;
};

}  // namespace famspec
