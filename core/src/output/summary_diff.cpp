#include "famspec/summary_diff.hpp"

#include <boost/json.hpp>
#include <set>

#include "famspec/canonical_json.hpp"

namespace famspec {
namespace json = boost::json;
namespace {

constexpr std::size_t kLongValue = 80;

Expected<json::object, std::string> parse_summary(std::string_view text) {
    boost::system::error_code ec;
    json::value value = json::parse(text, ec);
    if (ec) {
        return unexpected(std::string("not JSON: " + ec.message()));
    }
    if (!value.is_object()) {
        return unexpected(std::string("not a famspec summary: expected an object"));
    }
    for (const char* section : {"replacement_specs", "strategy_specs"}) {
        const json::value* specs = value.get_object().if_contains(section);
        if (!specs || !specs->is_object()) {
            return unexpected(std::string("not a famspec summary: expected \"") + section + "\" to be an object");
        }
    }
    return std::move(value.get_object());
}

std::string describe(const json::value* value) {
    const std::string text = value ? canonical_json(*value) : "(absent)";
    return text.size() <= kLongValue ? text : std::to_string(text.size()) + " bytes";
}

void compare_spec(const std::string& target, const std::string& section, const json::value& was, const json::value& now,
                  std::vector<std::string>& out) {
    if (was.is_null() || now.is_null() || !was.is_object() || !now.is_object()) {
        out.push_back("target " + target + ": " + (now.is_null() ? "no longer covered" : "now covered") + " (" +
                      section + ")");
        return;
    }
    std::set<std::string> fields;
    for (const auto& item : was.get_object()) fields.emplace(item.key());
    for (const auto& item : now.get_object()) fields.emplace(item.key());
    for (const std::string& field : fields) {
        const json::value* a = was.get_object().if_contains(field);
        const json::value* b = now.get_object().if_contains(field);
        if (!a || !b || *a != *b)
            out.push_back("target " + target + ": " + field + ": " + describe(a) + " -> " + describe(b));
    }
}

void compare_section(const json::object& before, const json::object& after, const std::string& section,
                     std::vector<std::string>& out) {
    const json::object& was = before.at(section).get_object();
    const json::object& now = after.at(section).get_object();
    std::set<std::string> targets;
    for (const auto& item : was) targets.emplace(item.key());
    for (const auto& item : now) targets.emplace(item.key());
    for (const std::string& target : targets) {
        const json::value* a = was.if_contains(target);
        const json::value* b = now.if_contains(target);
        if (!b)
            out.push_back("target " + target + ": removed (" + section + ")");
        else if (!a)
            out.push_back("target " + target + ": added (" + section + ")");
        else if (*a != *b)
            compare_spec(target, section, *a, *b, out);
    }
}

}  // namespace

SummaryComparison compare_summaries(std::string_view old_summary, std::string_view new_summary) {
    const auto before = parse_summary(old_summary);
    if (!before) return unexpected("old summary: " + before.error());
    const auto after = parse_summary(new_summary);
    if (!after) return unexpected("new summary: " + after.error());
    std::vector<std::string> differences;
    for (const char* section : {"replacement_specs", "strategy_specs"})
        compare_section(*before, *after, section, differences);
    if (differences.empty() && *before != *after)
        differences.push_back("entries differ: the same targets in other slots, or with other module types");
    return differences;
}

}  // namespace famspec
