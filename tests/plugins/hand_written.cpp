// A family written against the interfaces directly, without the declare:: builders: the path an
// author takes when an answer must be computed rather than stated. Here the spellings and the
// factory targets are derived from the model_type, and the construction is built in code.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "famspec/sdk.hpp"

namespace {

constexpr const char* kModelType = "hand_written";

class HandWrittenFamily final : public famspec::FamilyAdapter {
public:
    std::string_view model_type() const override { return kModelType; }
    std::string_view architecture() const override { return architecture_; }
    std::span<const std::string> aliases() const override { return aliases_; }
    std::span<const std::string> directory_aliases() const override { return {}; }
    std::span<const famspec::SourceBlock> interface_blocks() const override { return {}; }
    std::span<const std::string> compute_functions() const override { return {}; }

private:
    // Computed: "hand_written" -> "HandWrittenForCausalLM" and the alias "hand-written".
    static std::string camel_case(const std::string& snake) {
        std::string out;
        bool upper = true;
        for (const char c : snake) {
            if (c == '_') {
                upper = true;
                continue;
            }
            out += upper ? static_cast<char>(c - 'a' + 'A') : c;
            upper = false;
        }
        return out;
    }
    std::string architecture_ = camel_case(kModelType) + "ForCausalLM";
    std::vector<std::string> aliases_ = {"hand-written"};
};

// One factory per norm class, all alike: wrap the component and pass the module's name through.
class NormFactory final : public famspec::ReplacementFactory {
public:
    explicit NormFactory(const std::string& component)
        : target_(std::string("hyper_parallel.models.") + kModelType + ".adapter.replacements.replace_" +
                  lower(component)),
          construction_{.component = component,
                        .import_module = "hyper_parallel.components.modules",
                        .mode = famspec::ConstructionMode::wrap_source,
                        .module_positional = false,
                        .arguments = {{"module_fqn", famspec::ArgumentBinding::parameter, "module_fqn"}}} {}

    std::string_view family() const override { return kModelType; }
    std::string_view target() const override { return target_; }
    std::span<const famspec::Parameter> parameters() const override { return parameters_; }
    const famspec::Construction* construction() const override { return &construction_; }
    std::string_view runtime_only_reason() const override { return {}; }

private:
    static std::string lower(const std::string& name) {
        std::string out;
        for (const char c : name) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        return out;
    }
    std::string target_;
    famspec::Construction construction_;
    std::array<famspec::Parameter, 3> parameters_ = {{
        {"module", famspec::ParameterKind::positional_or_keyword, famspec::Default::required()},
        {"module_fqn", famspec::ParameterKind::positional_or_keyword, famspec::Default::literal("")},
        {"context", famspec::ParameterKind::positional_or_keyword, famspec::Default::literal(famspec::none)},
    }};
};

}  // namespace

FAMSPEC_PLUGIN("hand_written", "1.0.0", "famspec test fixture: interfaces implemented by hand")
(famspec::Registrar& registrar) {
    registrar.add_family(std::make_unique<HandWrittenFamily>(), __FILE__ ":family");
    for (const char* component : {"RMSNorm", "OffsetRMSNorm"}) {
        registrar.add_factory(std::make_unique<NormFactory>(component), __FILE__ ":factory");
    }
}
