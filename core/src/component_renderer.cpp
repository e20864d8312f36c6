#include "famspec/component_renderer.hpp"

namespace famspec {

ComponentRenderer::~ComponentRenderer() = default;

namespace {

class BlockRenderer final : public ComponentRenderer {
public:
    RenderResult render(const Component& component, std::string_view, std::span<const SourceBlock>) const override {
        return {std::nullopt, "rendering " + std::string(component.name()) + " is not available"};
    }
};

}  // namespace

const ComponentRenderer& block_renderer() {
    static const BlockRenderer renderer;
    return renderer;
}

}  // namespace famspec
