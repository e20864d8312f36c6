// The core's implementations of the interfaces a plugin declares (FamilyAdapter, ReplacementFactory,
// MoeArchetype, CpWrapper, Component): plain copies of a plugin's table rows, owned by the core, so
// that nothing the registry holds points into a plugin. Each is its Data, made with designated
// initializers by table_staging.cpp.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "famspec/sdk/component.hpp"
#include "famspec/sdk/cp_wrapper.hpp"
#include "famspec/sdk/family_adapter.hpp"
#include "famspec/sdk/moe_archetype.hpp"
#include "famspec/sdk/replacement_factory.hpp"

namespace famspec::detail {

class FamilyDeclaration final : public FamilyAdapter {
public:
    struct Data {
        std::string model_type, architecture;
        std::vector<std::string> aliases, directory_aliases;
        std::vector<SourceBlock> interface_blocks;
        std::vector<std::string> compute_functions;
    };
    explicit FamilyDeclaration(Data data) : data_(std::move(data)) {}

    std::string_view model_type() const override { return data_.model_type; }
    std::string_view architecture() const override { return data_.architecture; }
    std::span<const std::string> aliases() const override { return data_.aliases; }
    std::span<const std::string> directory_aliases() const override { return data_.directory_aliases; }
    std::span<const SourceBlock> interface_blocks() const override { return data_.interface_blocks; }
    std::span<const std::string> compute_functions() const override { return data_.compute_functions; }

private:
    Data data_;
};

class FactoryDeclaration final : public ReplacementFactory {
public:
    struct Data {
        std::string family, target;
        std::vector<Parameter> parameters;  // the three runtime parameters first, then the options
        std::optional<Construction> construction;
        std::string runtime_only_reason;
    };
    explicit FactoryDeclaration(Data data) : data_(std::move(data)) {}

    std::string_view family() const override { return data_.family; }
    std::string_view target() const override { return data_.target; }
    std::span<const Parameter> parameters() const override { return data_.parameters; }
    const Construction* construction() const override { return data_.construction ? &*data_.construction : nullptr; }
    std::string_view runtime_only_reason() const override { return data_.runtime_only_reason; }

private:
    Data data_;
};

class ArchetypeDeclaration final : public MoeArchetype {
public:
    struct Data {
        std::string family;
        MoeFingerprint fingerprint;
        std::string kind, target_class, router_kind, shared;
        std::vector<std::string> strip_boundary_subpatterns;
        std::string compute_factory;
        std::vector<Parameter> options;
    };
    explicit ArchetypeDeclaration(Data data) : data_(std::move(data)) {}

    std::string_view family() const override { return data_.family; }
    const MoeFingerprint& fingerprint() const override { return data_.fingerprint; }
    std::string_view kind() const override { return data_.kind; }
    std::string_view target_class() const override { return data_.target_class; }
    std::string_view router_kind() const override { return data_.router_kind; }
    std::string_view shared() const override { return data_.shared; }
    std::span<const std::string> strip_boundary_subpatterns() const override {
        return data_.strip_boundary_subpatterns;
    }
    std::string_view compute_factory() const override { return data_.compute_factory; }
    std::span<const Parameter> options() const override { return data_.options; }

private:
    Data data_;
};

class CpWrapperDeclaration final : public CpWrapper {
public:
    struct Data {
        std::string family, target;
        std::vector<Parameter> options;
    };
    explicit CpWrapperDeclaration(Data data) : data_(std::move(data)) {}

    std::string_view family() const override { return data_.family; }
    std::string_view target() const override { return data_.target; }
    std::span<const Parameter> options() const override { return data_.options; }

private:
    Data data_;
};

class ComponentDeclaration final : public Component {
public:
    struct Data {
        std::string name, import_module, defining_module;
        std::vector<Parameter> parameters;
        std::vector<SourceBlock> source;  // class block and helpers; empty if never rendered
    };
    explicit ComponentDeclaration(Data data) : data_(std::move(data)) {}

    std::string_view name() const override { return data_.name; }
    std::string_view import_module() const override { return data_.import_module; }
    std::string_view defining_module() const override { return data_.defining_module; }
    std::span<const Parameter> parameters() const override { return data_.parameters; }
    std::span<const SourceBlock> source() const override { return data_.source; }

private:
    Data data_;
};

}  // namespace famspec::detail
