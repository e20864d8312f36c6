// What a Registry holds: each declaration the plugins registered, with the plugin it came from. A
// host that reads the entries, rather than only resolving through them, includes this header; the
// declarations' types come with it. Each is a plain value (one header a concept: family_adapter.hpp,
// replacement_factory.hpp, moe_archetype.hpp, cp_wrapper.hpp, component.hpp), the core's own copy of
// a plugin's table row, checked once when it registers and never changed after: any thread reads it
// without a lock, for as long as it holds the entry's pointer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "famspec/component.hpp"
#include "famspec/cp_wrapper.hpp"
#include "famspec/family_adapter.hpp"
#include "famspec/moe_archetype.hpp"
#include "famspec/plugin_record.hpp"
#include "famspec/registry.hpp"
#include "famspec/replacement_factory.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// A registered object, the plugin it came from and where it was declared. The object is the core's
// own copy of the plugin's rows: it outlives the registry for as long as anyone holds it.
template <class T>
struct Registered {
    std::shared_ptr<const T> object;
    std::string plugin;  // plugin name
    std::string path;    // plugin file
    std::string where;   // declaration site, "file:line"

    const T& operator*() const { return *object; }
    const T* operator->() const { return object.get(); }
};

// <defining module>.<Class>: how a component is named in messages, manifests and explanations.
FAMSPEC_API std::string defining_path(const Component& component);

struct RegisteredFamily : Registered<FamilyAdapter> {
    // Normalised keys of its model_type, architecture and aliases. In a Registry, only the keys that
    // answer this family: another family's own name outranks its architecture or alias.
    std::vector<std::string> spellings;
    // Normalised directory aliases: identities whose registration lives in this family's directory.
    // A key space of its own, so a family's spelling (deepseek_v2) may equal another family's
    // directory alias (deepseekv2 -> deepseek_v3); a lookup tries spellings first.
    std::vector<std::string> directory_keys;
    // The modules that hold its replacement factories, sorted: those it declared (each factory then
    // resolves under every one of them), or else the modules its factory targets live in.
    std::vector<std::string> provider_modules;
    // Targets of CP wrappers another family declares that answer for this family too (its
    // context-parallel provider is that family's module), sorted.
    std::vector<std::string> borrowed_cp_wrappers;
};

// How a spelling was matched to a family, for `resolve --explain` (Registry::explain_family).
struct FamilyLookup {
    const RegisteredFamily* family = nullptr;
    std::vector<std::string> spellings_tried;
    std::string rule;  // "exact model_type", "normalised key '<k>'" or "directory alias '<k>'"
};

// Everything the loaded plugins registered, in load order.
struct Registry::Contents {
    std::vector<PluginRecord> plugins;
    std::vector<RegisteredFamily> families;
    std::vector<Registered<ReplacementFactory>> factories;
    std::vector<Registered<MoeArchetype>> archetypes;
    std::vector<Registered<CpWrapper>> cp_wrappers;
    std::vector<Registered<Component>> components;
};

}  // namespace famspec
