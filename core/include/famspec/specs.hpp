// The resolved, source-level declarations: immutable values shared by pointer. Field names are the
// ones the generated-artifact pipeline and the canonical summary use.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "famspec/sdk/construction_mode.hpp"
#include "famspec/sdk/export.hpp"

namespace famspec {

// One import line. With `raw`, the line is emitted verbatim; otherwise `from <module> import <names>`.
struct ImportPatch {
    std::string module;
    std::vector<std::string> names;
    std::optional<std::string> raw;
    friend bool operator==(const ImportPatch&, const ImportPatch&) = default;
};

// A top-level code block inserted after the imports.
struct ModuleSnippetPatch {
    std::string text;
    friend bool operator==(const ModuleSnippetPatch&, const ModuleSnippetPatch&) = default;
};

// How one replace_module target rewrites a constructor call.
struct ReplacementSpec {
    std::string old_ctor;  // bare class name of the matched source module
    std::string new_ctor;  // bare class name of the component constructed instead
    std::vector<ImportPatch> imports;
    ConstructionMode mode = ConstructionMode::name;  // renders as "name" or "wrap_source"
    std::vector<std::string> keyword_args;           // rendered "k=v" texts appended to the call
    std::vector<ModuleSnippetPatch> snippets;
    bool remove_class = true;
    std::optional<std::string> replacement_note;
    friend bool operator==(const ReplacementSpec&, const ReplacementSpec&) = default;
};

// How one parallel-strategy target rewrites a class method (or, imports-only, just marks coverage).
struct StrategySpec {
    std::string kind;
    std::vector<ImportPatch> imports;
    std::optional<std::string> target_class;
    std::string method_name = "forward";
    std::optional<std::string> body_template;
    std::vector<ModuleSnippetPatch> snippets;
    std::vector<std::string> strip_boundary_subpatterns;
    friend bool operator==(const StrategySpec&, const StrategySpec&) = default;
};

}  // namespace famspec
