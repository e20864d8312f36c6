// A model family: its identity and every spelling that names it.
//
// Read at registration to check the declaration and to build the family's lookup keys; asked
// afterwards while a target is resolved or a component rendered. The contract every interface keeps
// (threads, no throwing, lifetimes) is in famspec/sdk/interfaces.hpp. Members are const: an adapter
// holds no mutable state. The core implements it from a plugin's table row (`families`,
// table_declarations.hpp); an answer that must be computed is computed by the compiler.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "famspec/sdk/source_block.hpp"

namespace famspec {

class FamilyAdapter {
public:
    // Inline on purpose: the SDK is header-only and a plugin links no famspec library. The core
    // never dynamic_casts an interface object nor catches a plugin's own exception type, so a
    // vtable and typeinfo private to each plugin (RTLD_LOCAL) are enough.
    virtual ~FamilyAdapter() = default;

    virtual std::string_view model_type() const = 0;    // the registry key, e.g. "qwen3_moe"
    virtual std::string_view architecture() const = 0;  // e.g. "Qwen3MoeForCausalLM"
    // Further spellings of the family (normalised by the core before use).
    virtual std::span<const std::string> aliases() const = 0;
    // Directory keys under hyper_parallel.models.<dir> that belong to this family, e.g. "deepseekv2".
    virtual std::span<const std::string> directory_aliases() const = 0;
    // Functions the family hands to components (kernel entries) and their helpers, for rendering.
    virtual std::span<const SourceBlock> interface_blocks() const = 0;
    // local_compute_fn targets the family ships that are deliberately not MoE archetypes.
    virtual std::span<const std::string> compute_functions() const = 0;
};

}  // namespace famspec
