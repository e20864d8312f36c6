#include "resolution/replacement_builder.hpp"

#include <algorithm>

#include "famspec/expected.hpp"
#include "famspec/python_text.hpp"
#include "famspec/registry_entries.hpp"
#include "famspec/resolver.hpp"

namespace famspec::detail {
namespace {

const Parameter* parameter_named(std::span<const Parameter> parameters, std::string_view name) {
    const auto it = std::find_if(parameters.begin(), parameters.end(), [&](const auto& p) { return p.name == name; });
    return it == parameters.end() ? nullptr : &*it;
}

// The rendered "name=value" for a keyword the component receives, or why it cannot be rendered.
Expected<std::string, std::string> render_default(const Component& component, const Parameter& parameter) {
    const std::string where = std::string(component.name) + "." + parameter.name;
    switch (parameter.default_value.kind()) {
        case Default::Kind::required:
            return unexpected("component parameter " + where + " has no default to render");
        case Default::Kind::expression:
            return unexpected("the default of " + where + " (" + parameter.default_value.expression_source() +
                              ") is not a literal and cannot be rendered into generated source");
        case Default::Kind::literal:
            break;
    }
    return parameter.name + "=" + to_python(parameter.default_value.literal_value());
}

std::string note_for(const std::string& new_ctor, const std::string& old_ctor, bool wraps) {
    return wraps ? new_ctor + " wraps " + old_ctor + "; the original class is kept as the wrapper input."
                 : new_ctor + " replaces " + old_ctor + ".";
}

// Whether the component has a `module` parameter that takes the wrapped source module as passed.
bool receives_module(const Construction& construction, std::span<const Parameter> parameters) {
    const Parameter* module = parameter_named(parameters, "module");
    if (module == nullptr) return false;
    return construction.module_positional ? module->kind != ParameterKind::keyword_only : module->accepts_keyword();
}

// The first option that no argument passes on to the component, or null.
const std::string* unforwarded_option(const Construction& construction, const Options& options) {
    for (const auto& [name, value] : options) {
        const bool forwarded = std::any_of(
            construction.arguments.begin(), construction.arguments.end(),
            [&option = name](const auto& a) { return a.binding == ArgumentBinding::parameter && a.value == option; });
        if (!forwarded) return &name;
    }
    return nullptr;
}

// The construction's keyword arguments as the generated call writes them, in call order: a plan
// option where one is given, else the component's default; or why one cannot be written.
Expected<std::vector<std::string>, std::string> keyword_arguments(const Component& component,
                                                                  const Construction& construction,
                                                                  const Options& options, const std::string& target) {
    std::vector<std::string> written;
    for (const Argument& argument : construction.arguments) {
        const Parameter* parameter = parameter_named(component.parameters, argument.name);
        if (parameter == nullptr || !parameter->accepts_keyword()) {
            return unexpected("component " + construction.component + " lacks parameter '" + argument.name +
                              "' that factory " + target + " passes");
        }
        if (argument.binding != ArgumentBinding::parameter) {
            written.push_back(argument.name + "=" + argument.value);
        } else if (const auto option = options.find(argument.value); option != options.end()) {
            written.push_back(argument.name + "=" + to_python(option->second));
        } else if (auto rendered = render_default(component, *parameter)) {
            written.push_back(std::move(*rendered));
        } else {
            return unexpected(rendered.error());
        }
    }
    return written;
}

const Argument* first_interface(const Construction& construction) {
    const auto it = std::find_if(construction.arguments.begin(), construction.arguments.end(),
                                 [](const Argument& a) { return a.binding == ArgumentBinding::interface; });
    return it == construction.arguments.end() ? nullptr : &*it;
}

}  // namespace

Outcome<ReplacementSpec> build_factory_replacement(const Registry& registry, const RegisteredFamily& family,
                                                   const ReplacementFactory& factory, const std::string& old_ctor,
                                                   const Options& options, const ComponentRenderer& renderer) {
    const Construction& construction = *factory.construction;
    const std::string target(factory.target);
    const auto* registered = registry.find_component(construction.import_module, construction.component);
    if (registered == nullptr) {
        return broken<ReplacementSpec>("factory " + target + " constructs " + construction.component + " from " +
                                           construction.import_module +
                                           ", which no loaded plugin registers as a component",
                                       {}, "factory construction");
    }
    const Component& component = **registered;
    const bool wraps = construction.mode == ConstructionMode::wrap_source;
    if (wraps && !receives_module(construction, component.parameters)) {
        return gap<ReplacementSpec>(Gap::component_mismatch,
                                    "component " + construction.component + " has no " +
                                        (construction.module_positional ? "positional" : "keyword") +
                                        " 'module' parameter to receive the wrapped source module");
    }
    // The options are declared factory parameters (check_options kept only those); each must reach the
    // component, or the generated call would not say what the runtime does with it.
    if (const std::string* option = unforwarded_option(construction, options)) {
        return gap<ReplacementSpec>(Gap::bad_option, "option '" + *option + "' is not passed on to " +
                                                         construction.component +
                                                         ", so it cannot reach the generated call");
    }
    auto arguments = keyword_arguments(component, construction, options, target);
    if (!arguments) return gap<ReplacementSpec>(Gap::component_mismatch, arguments.error());

    auto spec = std::make_shared<ReplacementSpec>(ReplacementSpec{
        .old_ctor = old_ctor,
        .new_ctor = construction.component,
        .imports = {},
        .mode = construction.mode,
        .keyword_args = std::move(*arguments),
        .snippets = {},
        .remove_class = !wraps,
        .replacement_note = note_for(construction.component, old_ctor, wraps),
    });
    const Argument* interface = first_interface(construction);
    if (interface == nullptr) {
        spec->imports.push_back({construction.import_module, {construction.component}, std::nullopt});
        return covered<ReplacementSpec>(std::move(spec), "factory construction");
    }
    // The component receives a family function, so its class is rendered into the artifact and
    // defined there; importing it as well would only be shadowed.
    const RenderResult result = renderer.render(component, interface->value, family->interface_blocks);
    if (!result) {
        return broken<ReplacementSpec>("rendering " + construction.component + " for " + target + ": " + result.error(),
                                       registered->plugin, "component rendering");
    }
    for (const std::string& line : result->imports) spec->imports.push_back({"", {}, line});
    spec->snippets.push_back({result->source});
    return covered<ReplacementSpec>(std::move(spec), "factory construction, component rendered");
}

Outcome<ReplacementSpec> build_component_replacement(const Component& component, const std::string& old_ctor,
                                                     const Options& options) {
    const auto& parameters = component.parameters;
    const Parameter* module = parameter_named(parameters, "module");
    if (module == nullptr || !module->accepts_keyword()) {
        return gap<ReplacementSpec>(Gap::component_mismatch,
                                    "component " + std::string(component.name) +
                                        " takes no 'module' parameter, so it cannot wrap the source module");
    }
    auto spec = std::make_shared<ReplacementSpec>();
    spec->old_ctor = old_ctor;
    spec->new_ctor = std::string(component.name);
    spec->mode = ConstructionMode::wrap_source;
    spec->remove_class = false;
    spec->replacement_note = note_for(spec->new_ctor, old_ctor, true);
    // The runtime passes module_fqn and context; the generated call uses the constructor's defaults.
    for (const std::string_view runtime : {"module_fqn", "context"}) {
        const Parameter* parameter = parameter_named(parameters, runtime);
        if (parameter == nullptr) continue;
        auto rendered = render_default(component, *parameter);
        if (!rendered) return gap<ReplacementSpec>(Gap::component_mismatch, rendered.error());
        spec->keyword_args.push_back(std::move(*rendered));
    }
    // Plan options follow, in the constructor's parameter order.
    for (const Parameter& parameter : parameters) {
        if (const auto option = options.find(parameter.name); option != options.end()) {
            spec->keyword_args.push_back(parameter.name + "=" + to_python(option->second));
        }
    }
    spec->imports.push_back({std::string(component.defining_module), {std::string(component.name)}, std::nullopt});
    return covered<ReplacementSpec>(std::move(spec), "direct component");
}

}  // namespace famspec::detail
