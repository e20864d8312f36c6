// The registration surface the core hands to a plugin's entry point.
//
// The core calls the plugin's register function exactly once, on the thread that called
// load_plugins, under the process-wide loader lock, after the plugin's manifest and descriptor have
// been checked. Inside it the plugin adds its declarations here, and nowhere else: nothing registers
// from a static constructor, and the registrar must not be kept or used after the function returns.
//
// Each add_* takes ownership of one object. The core checks it as it arrives and makes it visible
// only if the whole registration succeeds and matches the manifest, so a failing plugin is never
// half-applied. Every object it keeps holds the plugin's library mapped for as long as anyone holds
// the object. `where` names the declaration site ("file:line") for duplicate reports.
//
// The register function may throw; the core catches at this boundary and reports the plugin as
// failed at the register stage. It must not call exit, load plugins, or start threads.
#pragma once

#include <memory>
#include <string_view>

#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/replacement_factory.hpp"

namespace famspec {

class Registrar {
public:
    virtual void add_family(std::unique_ptr<const FamilyAdapter> family, std::string_view where) = 0;
    virtual void add_factory(std::unique_ptr<const ReplacementFactory> factory, std::string_view where) = 0;
    virtual void add_archetype(std::unique_ptr<const MoeArchetype> archetype, std::string_view where) = 0;
    virtual void add_cp_wrapper(std::unique_ptr<const CpWrapper> wrapper, std::string_view where) = 0;
    virtual void add_component(std::unique_ptr<const Component> component, std::string_view where) = 0;
    // ABI minor 1. A module that holds `family`'s replacement factories, e.g.
    // hyper_parallel.models.<family>.adapter.replacements. A family may declare several (runtime
    // versions moved the factories between layouts); each of its factories then resolves under every
    // one of them, and must lie in one. Declare them after the family and before its factories. A
    // family that declares none resolves each factory under its own target only.
    virtual void add_provider_module(std::string_view family, std::string_view module, std::string_view where) = 0;

protected:
    // Owned by the core: a plugin never destroys it.
    ~Registrar() = default;
};

}  // namespace famspec
