#include "output/spec_json.hpp"

#include <algorithm>
#include <cctype>

#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/names.hpp"
#include "famspec/specs.hpp"
#include "famspec/strategy_check.hpp"

namespace famspec {
namespace json = boost::json;
namespace {

json::value optional_text(const std::optional<std::string>& text) {
    return text ? json::value(*text) : json::value(nullptr);
}

json::array imports_json(const std::vector<ImportPatch>& imports) {
    json::array out;
    for (const auto& patch : imports) {
        out.push_back(json::object{
            {"module", patch.module}, {"names", string_array(patch.names)}, {"raw", optional_text(patch.raw)}});
    }
    return out;
}

json::array snippets_json(const std::vector<ModuleSnippetPatch>& snippets) {
    json::array out;
    for (const auto& snippet : snippets) out.push_back(json::object{{"text", snippet.text}});
    return out;
}

bool is_blank(const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

bool is_identifier(const std::string& text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) != 0) return false;
    return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

}  // namespace

namespace detail {

json::value to_json(const ReplacementSpec& spec) {
    return json::object{{"old_ctor", spec.old_ctor},
                        {"new_ctor", spec.new_ctor},
                        {"imports", imports_json(spec.imports)},
                        {"mode", name_of(spec.mode)},
                        {"keyword_args", string_array(spec.keyword_args)},
                        {"snippets", snippets_json(spec.snippets)},
                        {"remove_class", spec.remove_class},
                        {"replacement_note", optional_text(spec.replacement_note)}};
}

json::value to_json(const StrategySpec& spec) {
    return json::object{{"kind", spec.kind},
                        {"imports", imports_json(spec.imports)},
                        {"target_class", optional_text(spec.target_class)},
                        {"method_name", spec.method_name},
                        {"body_template", optional_text(spec.body_template)},
                        {"snippets", snippets_json(spec.snippets)},
                        {"strip_boundary_subpatterns", string_array(spec.strip_boundary_subpatterns)}};
}

}  // namespace detail

std::optional<std::string> validation_error(const StrategySpec& spec) {
    if (spec.target_class.has_value() != spec.body_template.has_value()) {
        return "StrategySpec: target_class and body_template must be provided together";
    }
    if ((spec.target_class && is_blank(*spec.target_class)) || (spec.body_template && is_blank(*spec.body_template))) {
        return "StrategySpec: target_class and body_template must be nonempty";
    }
    if (!is_identifier(spec.method_name)) {
        return "StrategySpec: method_name '" + spec.method_name + "' is not a Python identifier";
    }
    if (spec.kind.empty()) return "StrategySpec: kind must be nonempty";
    return std::nullopt;
}

std::string to_canonical_json(const ReplacementSpec& spec) { return canonical_json(detail::to_json(spec)); }
std::string to_canonical_json(const StrategySpec& spec) { return canonical_json(detail::to_json(spec)); }

}  // namespace famspec
