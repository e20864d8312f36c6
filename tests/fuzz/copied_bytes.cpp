#include "copied_bytes.hpp"

#include <span>
#include <variant>

namespace famspec::fuzz {
namespace {

std::uint64_t bytes(std::string_view text) { return text.size(); }

std::uint64_t bytes(std::span<const std::string> texts) {
    std::uint64_t n = 0;
    for (const std::string& each : texts) n += each.size();
    return n;
}

std::uint64_t literal_bytes(const PyLiteral& literal) {
    const auto* text = std::get_if<std::string>(&literal.value());
    return text == nullptr ? 0 : text->size();
}

std::uint64_t bytes(std::span<const Parameter> parameters) {
    std::uint64_t n = 0;
    for (const Parameter& p : parameters) {
        n +=
            p.name.size() + literal_bytes(p.default_value.literal_value()) + p.default_value.expression_source().size();
        for (const PyLiteral& value : p.allowed) n += literal_bytes(value);
    }
    return n;
}

std::uint64_t bytes(std::span<const SourceBlock> blocks) {
    std::uint64_t n = 0;
    for (const SourceBlock& b : blocks) n += bytes(b.defines) + bytes(b.needs) + bytes(b.imports) + b.text.size();
    return n;
}

template <class T>
std::uint64_t site(const Registered<T>& entry) {
    return entry.where.size();
}

}  // namespace

std::uint64_t copied_bytes(const PluginManifest& m) {
    std::uint64_t n = m.name.size() + m.version.size() + m.description.size() + m.fingerprint.size() +
                      bytes(m.factories) + bytes(m.cp_wrappers) + bytes(m.components);
    for (const ManifestFamily& f : m.families) {
        n += f.model_type.size() + f.architecture.size() + bytes(f.aliases) + bytes(f.directory_aliases);
    }
    for (const ManifestArchetype& a : m.archetypes) n += a.compute_factory.size() + bytes(a.fingerprint);
    return n;
}

std::uint64_t copied_bytes(const detail::StagingRegistrar::Declarations& declared) {
    std::uint64_t n = 0;
    for (const auto& f : declared.families) {
        n += site(f) + bytes(f->model_type) + bytes(f->architecture) + bytes(f->aliases) + bytes(f->directory_aliases) +
             bytes(f->interface_blocks) + bytes(f->compute_functions) + bytes(f.borrowed_cp_wrappers);
    }
    for (const auto& f : declared.factories) {
        n += site(f) + bytes(f->family) + bytes(f->target) + bytes(f->parameters) + bytes(f->runtime_only_reason);
        if (const std::optional<Construction>& built = f->construction) {
            n += built->component.size() + built->import_module.size();
            for (const Argument& a : built->arguments) n += a.name.size() + a.value.size();
        }
    }
    for (const auto& a : declared.archetypes) {
        // Its words (fingerprint, kind, router_kind, shared) are enums: no text.
        n += site(a) + bytes(a->family) + bytes(a->target_class) + bytes(a->strip_boundary_subpatterns) +
             bytes(a->compute_factory) + bytes(a->options);
    }
    for (const auto& w : declared.cp_wrappers) n += site(w) + bytes(w->family) + bytes(w->target) + bytes(w->options);
    for (const auto& c : declared.components) {
        n += site(c) + bytes(c->name) + bytes(c->import_module) + bytes(c->defining_module) + bytes(c->parameters) +
             bytes(c->source);
    }
    return n;
}

std::uint64_t copied_bytes(const std::vector<std::string>& texts) { return bytes(texts); }

}  // namespace famspec::fuzz
