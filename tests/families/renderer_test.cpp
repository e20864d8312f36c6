// The block renderer (block_renderer()), on small declared components: what it emits, in which
// order, and every way a declaration can be rejected.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "famspec/component_renderer.hpp"
#include "python_check.hpp"

namespace {

using famspec::SourceBlock;

SourceBlock block(std::vector<std::string> defines, std::vector<std::string> needs, std::vector<std::string> imports,
                  std::string text) {
    return {std::move(defines), std::move(needs), std::move(imports), std::move(text)};
}

famspec::Component widget(std::vector<SourceBlock> source) {
    return {.name = "Widget",
            .import_module = "pkg.modules",
            .defining_module = "pkg.modules.widget",
            .parameters = {{"module", famspec::ParameterKind::positional_or_keyword, famspec::Default::required()}},
            .source = std::move(source)};
}

// A kernel entry with a helper chain, and a class whose helper shares a block with the kernel.
const std::vector<SourceBlock> kInterface = {
    block({"run_kernel"}, {"helper_k", "math"}, {"import math"},
          "def run_kernel(x):\n    return helper_k(x) + math.pi\n"),
    block({"helper_k"}, {"_SCALE"}, {}, "def helper_k(x):\n    return x * _SCALE\n"),
    block({"_SCALE"}, {}, {}, "_SCALE = 2\n"),
};

std::vector<SourceBlock> widget_source() {
    return {
        // Declared before its helpers on purpose: the order comes from needs, not from declaration.
        block({"Widget"}, {"nn", "shared_helper"}, {"from torch import nn"},
              "class Widget(nn.Module):\n    def forward(self, x):\n        return shared_helper(x)\n"),
        block({"shared_helper"}, {"helper_k", "len"}, {},
              "\n\ndef shared_helper(x):\n    return helper_k(x) + len(x)\n\n"),
        block({"unused_helper"}, {"nowhere"}, {"import unused"}, "def unused_helper():\n    return nowhere\n"),
    };
}

famspec::RenderResult render(const famspec::Component& component, std::string_view interface_function = "run_kernel",
                             const std::vector<SourceBlock>& interface_blocks = kInterface) {
    return famspec::block_renderer().render(component, interface_function, interface_blocks);
}

const std::string kExpectedSource =
    "_SCALE = 2\n"
    "\n\n"
    "def helper_k(x):\n    return x * _SCALE\n"
    "\n\n"
    "def run_kernel(x):\n    return helper_k(x) + math.pi\n"
    "\n\n"
    "def shared_helper(x):\n    return helper_k(x) + len(x)\n"
    "\n\n"
    "# famspec: rendered component Widget (interface: run_kernel)\n"
    "class Widget(nn.Module):\n    def forward(self, x):\n        return shared_helper(x)\n";

std::string error_of(const famspec::RenderResult& result) {
    REQUIRE_FALSE(result.has_value());
    return result.error();
}

}  // namespace

TEST_CASE("renderer: the interface root, then the class root, each after what it needs, each block once") {
    const auto component = widget(widget_source());
    const auto result = render(component);
    REQUIRE(result.has_value());
    CHECK(result->source == kExpectedSource);
    // Only the import lines of emitted blocks, de-duplicated and sorted; unused_helper is not reached.
    CHECK(result->imports == std::vector<std::string>{"from torch import nn", "import math"});
}

TEST_CASE("renderer: the artifact it produces is Python whose every module-scope name is bound") {
    const auto component = widget(widget_source());
    const auto result = render(component);
    REQUIRE(result.has_value());
    const auto check = famspec::test::check_python(famspec::test::artifact(result->imports, result->source));
    CHECK_MESSAGE(check.parsed, check.error);
    CHECK(check.unbound.empty());
    // The check itself can fail: the same source without its imports leaves math and nn unbound.
    const auto bare = famspec::test::check_python(result->source);
    CHECK(bare.parsed);
    CHECK(bare.unbound == std::vector<std::string>{"math", "nn"});
}

TEST_CASE("renderer: output depends only on the inputs") {
    const auto first = widget(widget_source());
    const auto second = widget(widget_source());
    const auto a = render(first);
    const auto b = render(first);
    const auto c = render(second);
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    REQUIRE(c.has_value());
    CHECK(a->source == b->source);
    CHECK(a->source == c->source);
    CHECK(a->imports == c->imports);
}

TEST_CASE("renderer: a block declared by both the family and the component is emitted once") {
    auto source = widget_source();
    source.push_back(kInterface[1]);  // helper_k, the identical block
    const auto component = widget(source);
    const auto result = render(component);
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    CHECK(result->source == kExpectedSource);
}

TEST_CASE("renderer: import lines repeated across blocks are emitted once, with surrounding space trimmed") {
    const auto component = widget({
        block({"Widget"}, {"nn", "torch", "a"}, {"import torch", " from torch import nn ", "import a.b"},
              "class Widget(nn.Module):\n    x = torch.zeros(1)\n    y = a.b\n"),
    });
    const std::vector<SourceBlock> interface = {
        block({"run_kernel"}, {"torch", "nn"}, {"import torch", "from torch import nn"},
              "def run_kernel():\n    return torch, nn\n"),
    };
    const auto result = render(component, "run_kernel", interface);
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    CHECK(result->imports == std::vector<std::string>{"from torch import nn", "import a.b", "import torch"});
}

TEST_CASE("renderer: every accepted import form binds the names Python binds") {
    const auto component = widget({
        block({"Widget"}, {"a", "c", "x", "z", "p", "q", "m", "n", "len", "__name__"},
              {"import a.b", "import a.b as c", "from mod.sub import x, y as z", "from mod import (p,\tq,)",
               "import m, n  # two at once"},
              "class Widget:\n    names = (a, c, x, z, p, q, m, n, len, __name__)\n"),
    });
    const auto result = famspec::block_renderer().render(component, "", {});
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    // Without an interface, the class is the only root.
    CHECK(result->source ==
          "# famspec: rendered component Widget\nclass Widget:\n    names = (a, c, x, z, p, q, m, n, len, __name__)\n");
    // `import a.b` binds a, not b; `y as z` binds z, not y.
    for (const char* unbound : {"b", "y"}) {
        CAPTURE(unbound);
        const auto wrong = widget({block({"Widget"}, {unbound}, {"import a.b", "from mod.sub import x, y as z"},
                                         "class Widget:\n    pass\n")});
        const std::string error = error_of(famspec::block_renderer().render(wrong, "", {}));
        CHECK(error.find("'" + std::string(unbound) + "'") != std::string::npos);
    }
}

TEST_CASE("renderer: a needed name bound nowhere fails, naming the name and the class") {
    auto source = widget_source();
    source[1].needs.push_back("undefined_thing");
    const auto component = widget(source);
    const std::string error = error_of(render(component));
    CHECK(error.find("'undefined_thing'") != std::string::npos);
    CHECK(error.find("Widget") != std::string::npos);
    CHECK(error.find("'shared_helper'") != std::string::npos);  // the block that needs it
}

TEST_CASE("renderer: a name missing from the interface side fails too, still naming the class") {
    auto interface = kInterface;
    interface[0].imports.clear();  // run_kernel still needs math
    const auto component = widget(widget_source());
    const std::string error = error_of(render(component, "run_kernel", interface));
    CHECK(error.find("'math'") != std::string::npos);
    CHECK(error.find("Widget") != std::string::npos);
}

TEST_CASE("renderer: a name defined by two different blocks is an error") {
    auto source = widget_source();
    source.push_back(block({"helper_k"}, {}, {}, "def helper_k(x):\n    return x\n"));
    const auto component = widget(source);
    const std::string error = error_of(render(component));
    CHECK(error.find("'helper_k'") != std::string::npos);
    CHECK(error.find("two different blocks") != std::string::npos);
    CHECK(error.find("Widget") != std::string::npos);
}

TEST_CASE("renderer: one name bound by two imports to different objects, or imported and defined, is an error") {
    SUBCASE("two imports") {
        const auto component = widget({
            block({"Widget"}, {"np"}, {"import numpy as np"}, "class Widget:\n    x = np\n"),
        });
        const std::vector<SourceBlock> interface = {
            block({"run_kernel"}, {"np"}, {"import not_numpy as np"}, "def run_kernel():\n    return np\n"),
        };
        const std::string error = error_of(render(component, "run_kernel", interface));
        CHECK(error.find("'np'") != std::string::npos);
        CHECK(error.find("numpy") != std::string::npos);
        CHECK(error.find("not_numpy") != std::string::npos);
    }
    SUBCASE("an import and a block") {
        auto source = widget_source();
        source[0].imports.push_back("from elsewhere import helper_k");
        const auto component = widget(source);
        const std::string error = error_of(render(component));
        CHECK(error.find("'helper_k'") != std::string::npos);
        CHECK(error.find("Widget") != std::string::npos);
    }
}

TEST_CASE("renderer: import lines it cannot read are errors naming the line") {
    for (const char* line : {"from . import x", "from mod import *", "imprt torch", "import", "from mod import",
                             "import a as", "from mod import (x", "import a.b.", "import torch; import os"}) {
        CAPTURE(line);
        const auto component = widget({block({"Widget"}, {}, {line}, "class Widget:\n    pass\n")});
        const std::string error = error_of(famspec::block_renderer().render(component, "", {}));
        CHECK(error.find(std::string("'") + line + "'") != std::string::npos);
        CHECK(error.find("Widget") != std::string::npos);
    }
}

TEST_CASE("renderer: mutually recursive functions are emitted once each") {
    const auto component = widget({
        block({"Widget"}, {"is_even"}, {}, "class Widget:\n    check = staticmethod(is_even)\n"),
        block({"is_even"}, {"is_odd"}, {}, "def is_even(n):\n    return n == 0 or is_odd(n - 1)\n"),
        block({"is_odd"}, {"is_even"}, {}, "def is_odd(n):\n    return n != 0 and is_even(n - 1)\n"),
    });
    const auto result = famspec::block_renderer().render(component, "", {});
    REQUIRE_MESSAGE(result.has_value(), (result ? "" : result.error()));
    CHECK(result->source ==
          "def is_odd(n):\n    return n != 0 and is_even(n - 1)\n\n\n"
          "def is_even(n):\n    return n == 0 or is_odd(n - 1)\n\n\n"
          "# famspec: rendered component Widget\nclass Widget:\n    check = staticmethod(is_even)\n");
}

TEST_CASE("renderer: a missing root is an error") {
    SUBCASE("the interface function is not declared") {
        const auto component = widget(widget_source());
        const std::string error = error_of(render(component, "run_other_kernel"));
        CHECK(error.find("'run_other_kernel'") != std::string::npos);
        CHECK(error.find("Widget") != std::string::npos);
    }
    SUBCASE("no block defines the class") {
        auto source = widget_source();
        source.erase(source.begin());
        const auto component = widget(source);
        const std::string error = error_of(render(component));
        CHECK(error.find("Widget") != std::string::npos);
    }
    SUBCASE("the component declares no source") {
        const auto component = widget({});
        const std::string error = error_of(render(component));
        CHECK(error.find("Widget") != std::string::npos);
    }
    SUBCASE("a block that defines nothing") {
        auto source = widget_source();
        source.push_back(block({}, {}, {}, "print('side effect')\n"));
        const auto component = widget(source);
        const std::string error = error_of(render(component));
        CHECK(error.find("defines no name") != std::string::npos);
    }
}
