#include "famspec/component_renderer.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "common/python_names.hpp"

namespace famspec {

ComponentRenderer::~ComponentRenderer() = default;

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

// Blank lines around a block are layout, not content: the join decides the spacing.
std::string_view without_outer_blank_lines(std::string_view text) {
    const auto first = text.find_first_not_of("\r\n");
    if (first == std::string_view::npos) return {};
    text.remove_prefix(first);
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(0, last + 1);
}

std::string describe(const SourceBlock& block) {
    return block.defines.empty() ? std::string("a block") : "the block of " + quoted(block.defines.front());
}

// One render: the pool of declared blocks, indexed by the names they define.
class Render {
public:
    Render(const Component& component, std::string_view interface_function,
           std::span<const SourceBlock> interface_blocks)
        : component_(component), class_name_(component.name), interface_function_(interface_function) {
        for (const SourceBlock& block : interface_blocks) add(block);
        for (const SourceBlock& block : component.source) add(block);
    }

    RenderResult run() {
        if (!error_.empty()) return failure();
        if (component_.source.empty()) return fail(class_name_ + " declares no source blocks to render");
        const auto class_root = definer_.find(class_name_);
        if (class_root == definer_.end()) return fail("no source block defines the class " + class_name_);
        state_.assign(blocks_.size(), State::unvisited);
        if (!interface_function_.empty()) {
            const auto interface_root = definer_.find(interface_function_);
            if (interface_root == definer_.end()) {
                return fail("the interface function " + quoted(interface_function_) + " handed to " + class_name_ +
                            " is defined by none of the family's interface blocks");
            }
            visit(interface_root->second);
        }
        visit(class_root->second);
        if (!bind_imports() || !check_needs()) return failure();
        return RenderedComponent{sorted_imports(), source(class_root->second)};
    }

private:
    void add(const SourceBlock& block) {
        if (!error_.empty()) return;
        // The same block declared twice (e.g. a helper shared by a family and a component) is one block.
        if (std::any_of(blocks_.begin(), blocks_.end(), [&](const SourceBlock* b) { return *b == block; })) return;
        if (block.defines.empty()) {
            error_ = "a source block rendered with " + class_name_ + " defines no name";
            return;
        }
        const std::size_t index = blocks_.size();
        blocks_.push_back(&block);
        for (const std::string& name : block.defines) {
            const auto [it, inserted] = definer_.emplace(name, index);
            if (!inserted && it->second != index) {
                error_ = quoted(name) + " is defined by two different blocks (" + describe(*blocks_[it->second]) +
                         " and " + describe(block) + ") rendered with " + class_name_;
                return;
            }
        }
    }

    // Depth-first over needs, so every block follows what it needs. A cycle is legal between
    // module-level functions (names resolve at call time): it is cut where it closes.
    void visit(std::size_t index) {
        if (state_[index] != State::unvisited) return;
        state_[index] = State::visiting;
        for (const std::string& need : blocks_[index]->needs) {
            if (const auto it = definer_.find(need); it != definer_.end()) visit(it->second);
        }
        state_[index] = State::done;
        order_.push_back(index);
    }

    bool bind_imports() {
        for (const std::size_t index : order_) {
            for (const std::string& line : blocks_[index]->imports) {
                const detail::ImportParse parse = detail::parse_import_line(line);
                if (!parse) {
                    error_ = "import line " + quoted(trimmed(line)) + " of " + describe(*blocks_[index]) +
                             " rendered with " + class_name_ + " cannot be read: " + parse.error();
                    return false;
                }
                for (const detail::ImportBinding& binding : *parse) {
                    const auto [it, inserted] = imported_.emplace(binding.name, binding.bound_to);
                    if (!inserted && it->second != binding.bound_to) {
                        error_ = "imports rendered with " + class_name_ + " bind " + quoted(binding.name) +
                                 " to both " + it->second + " and " + binding.bound_to;
                        return false;
                    }
                    if (emitted(binding.name)) {
                        error_ = quoted(binding.name) + " is both imported (" + quoted(trimmed(line)) +
                                 ") and defined by a block rendered with " + class_name_;
                        return false;
                    }
                }
            }
        }
        return true;
    }

    bool check_needs() {
        for (const std::size_t index : order_) {
            for (const std::string& need : blocks_[index]->needs) {
                if (emitted(need) || imported_.contains(need) || detail::is_python_builtin(need)) continue;
                error_ = "cannot render " + class_name_ + ": " + quoted(need) + ", needed by " +
                         describe(*blocks_[index]) + ", is neither defined by a block, bound by an import line, " +
                         "nor a Python builtin";
                return false;
            }
        }
        return true;
    }

    bool emitted(const std::string& name) const {
        const auto it = definer_.find(name);
        return it != definer_.end() && state_[it->second] == State::done;
    }

    std::vector<std::string> sorted_imports() const {
        std::set<std::string> lines;
        for (const std::size_t index : order_) {
            for (const std::string& line : blocks_[index]->imports) lines.emplace(trimmed(line));
        }
        return {lines.begin(), lines.end()};
    }

    std::string source(std::size_t class_block) const {
        std::string text;
        for (const std::size_t index : order_) {
            if (!text.empty()) text += "\n\n\n";
            if (index == class_block) {
                text += "# famspec: rendered component " + class_name_;
                if (!interface_function_.empty()) text += " (interface: " + interface_function_ + ")";
                text += "\n";
            }
            text += without_outer_blank_lines(blocks_[index]->text);
        }
        return text + "\n";
    }

    RenderResult fail(std::string message) {
        error_ = std::move(message);
        return failure();
    }
    RenderResult failure() const { return unexpected(error_); }

    enum class State { unvisited, visiting, done };

    const Component& component_;
    std::string class_name_;
    std::string interface_function_;
    std::vector<const SourceBlock*> blocks_;
    std::map<std::string, std::size_t, std::less<>> definer_;
    std::vector<State> state_;
    std::vector<std::size_t> order_;
    std::map<std::string, std::string, std::less<>> imported_;
    std::string error_;
};

class BlockRenderer final : public ComponentRenderer {
public:
    RenderResult render(const Component& component, std::string_view interface_function,
                        std::span<const SourceBlock> interface_blocks) const override {
        return Render(component, interface_function, interface_blocks).run();
    }
};

}  // namespace

const ComponentRenderer& block_renderer() {
    static const BlockRenderer renderer;
    return renderer;
}

}  // namespace famspec
