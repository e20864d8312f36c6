#include "famspec/plan.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/exceptions.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

#include "common/dotted_path.hpp"
#include "famspec/nearest_names.hpp"
#include "famspec/plan_family.hpp"
#include "famspec/plan_keys.hpp"
#include "plan/plan_encoding.hpp"
#include "plan/plan_yaml.hpp"

namespace famspec {
namespace {

using detail::at;
using detail::boolean;
using detail::check_unique_keys;
using detail::dotted_path;
using detail::fail;
using detail::is_identifier;
using detail::kind_of;
using detail::PlanFailure;
using detail::scalar_value;
using detail::shown;
using detail::text;
using detail::YamlNode;

// A target: a dotted path, or a mapping with `_target_` (or `target`) plus static options.
Target target(const YamlNode& node, std::string_view key) {
    Target out;
    out.location = at(node);
    if (node.IsMap()) check_unique_keys(node);
    if (node.IsScalar()) {
        out.path = dotted_path(node, key);
        return out;
    }
    if (!node.IsMap()) {
        fail(node,
             "'" + std::string(key) + "': expected a target path or a mapping with _target_, found " + kind_of(node));
    }
    for (const auto& item : node) {
        const std::string name = item.first.Scalar();
        if (name == "_target_" || name == "target") {
            if (!out.path.empty())
                fail(item.first, "'" + std::string(key) + "': give either _target_ or target, not both");
            out.path = dotted_path(item.second, name);
            continue;
        }
        if (!is_identifier(name)) fail(item.first, "option name " + shown(name) + " is not a Python identifier");
        if (!item.second.IsScalar() && !item.second.IsNull()) {
            fail(item.second, "option " + shown(name) + ": expected a scalar (bool, number, string or null), found " +
                                  kind_of(item.second));
        }
        out.options[name] = item.second.IsNull() ? PyLiteral(none) : scalar_value(item.second);
    }
    if (out.path.empty()) fail(node, "'" + std::string(key) + "': the target has no _target_ path");
    return out;
}

// Thrown when a plan has as many errors as the limit: reading stops there.
struct TooManyErrors {};

// What the reader carries through one plan: where warnings and errors go, and whether unread keys
// are errors. A failure in one key or entry is kept and reading goes on with the next, so that a
// plan reports all its errors in one run.
struct Reader {
    Plan& plan;
    const PlanLimits& limits;
    bool strict;
    std::vector<PlanFailure> failures;

    void keep(PlanFailure failure) {
        failures.push_back(std::move(failure));
        if (failures.size() >= limits.max_errors) throw TooManyErrors{};
    }
    // Runs one independent part of the plan; its failure is kept, not thrown.
    template <class Part>
    void guarded(Part&& part) {
        try {
            part();
        } catch (PlanFailure& failure) {
            keep(std::move(failure));
        }
    }

    // A name famspec does not read: a warning (with the nearest known name), or under strict an error.
    void unread(const YamlNode& key, const UnreadKey& word) {
        if (strict) fail(key, word.message + " (an error under strict reading)");
        plan.warnings.push_back(PlanWarning{plan.file, at(key), word.warning(), word.suggestion});
    }
    // A note for what famspec reads nowhere but a reader could think it does.
    void note(const YamlNode& key, std::string message) {
        plan.warnings.push_back(PlanWarning{plan.file, at(key), std::move(message), {}});
    }

    PlanEntry entry(const YamlNode& node);
    void entry_key(const YamlNode& key, const YamlNode& value, PlanEntry& out, std::optional<YamlNode>& match);
    void root(const YamlNode& root);
    void top_level_key(const YamlNode& key, const YamlNode& value);
};

Target slot_target(const YamlNode& key, const YamlNode& value) {
    Target out = target(value, key.Scalar());
    out.location = at(key);  // where the slot is written
    return out;
}

// Checks what an entry says as a whole, once its keys are read.
void check_entry(const YamlNode& node, const PlanEntry& out, const std::optional<YamlNode>& match) {
    if (out.match.empty()) fail(node, "plan_overrides entry: expected a 'match' key");
    if (out.replace_module) {
        if (!out.module_type) {
            fail(node, "an entry with replace_module needs module_type (the dotted source class it replaces)");
        }
        if (out.when && *out.when != "low_precision") {
            fail(node, "replace_module only allows when: low_precision, found when: " + shown(*out.when));
        }
    }
    if (match && match->IsSequence() && (out.local_compute_fn || out.inner_wrapper)) {
        fail(*match, "a list of match patterns is allowed only on replacement-only entries");
    }
}

PlanEntry Reader::entry(const YamlNode& node) {
    if (!node.IsMap()) fail(node, "plan_overrides entry: expected a mapping, found " + kind_of(node));
    check_unique_keys(node);
    PlanEntry out;
    out.location = at(node);
    std::optional<YamlNode> match;  // a handle, not a pointer: iteration yields temporaries
    const std::size_t failed_before = failures.size();
    for (const auto& item : node) guarded([&] { entry_key(item.first, item.second, out, match); });
    // An entry with a broken key is not checked as a whole: its other complaints would be guesses.
    if (failures.size() == failed_before) check_entry(node, out, match);
    return out;
}

void Reader::entry_key(const YamlNode& key_node, const YamlNode& value, PlanEntry& out,
                       std::optional<YamlNode>& match) {
    const std::string key = key_node.Scalar();
    if (const auto word = unread_entry_key(key)) {
        unread(key_node, *word);
    } else if (key == "match") {
        out.match = detail::text_list(value, key);
        match = value;
    } else if (key == "when") {
        out.when = text(value, key);
    } else if (key == "module_type") {
        out.module_type = dotted_path(value, key);
    } else if (key == "exact_type" || key == "region_dispatch") {
        const bool flag = boolean(value, key);
        if (key == "exact_type") out.exact_type = flag;
    } else if (key == "replace_module") {
        out.replace_module = slot_target(key_node, value);
    } else if (key == "local_compute_fn") {
        out.local_compute_fn = slot_target(key_node, value);
    } else if (key == "inner_wrapper") {
        out.inner_wrapper = slot_target(key_node, value);
    } else if (key == "inner_target" || key == "inner_out_src") {
        const std::string t = text(value, key);
        if (key == "inner_target") out.inner_target = t;
    } else if (key == "tp_divide_attrs") {
        detail::text_list(value, key);
    }
    // params, in_src, in_dst, out_src, out_dst: placement contracts, not read by resolution.
}

// model._target_ of a training config: a builder path that may name the family's directory. The
// section is the runtime's, so anything else in it, or any other shape, is left alone.
std::optional<std::string> model_target(const YamlNode& model) {
    if (!model.IsMap()) return std::nullopt;
    for (const auto& item : model) {
        if (!item.first.IsScalar() || item.first.Scalar() != "_target_") continue;
        if (!item.second.IsScalar() || item.second.Scalar().empty()) return std::nullopt;
        return item.second.Scalar();
    }
    return std::nullopt;
}

void Reader::root(const YamlNode& root) {
    if (!root.IsDefined() || root.IsNull())
        fail(root, "the plan is empty; expected a mapping with a plan_overrides list");
    if (!root.IsMap()) fail(root, "expected a mapping with a plan_overrides list, found " + kind_of(root));
    std::size_t visited = 0;
    detail::check_size(root, 1, limits, visited);
    check_unique_keys(root);
    bool has_overrides = false;
    std::string hints;  // what the plan holds instead of a top-level plan_overrides
    std::optional<std::pair<YamlNode, std::string>> nested;  // a plan_overrides below the top level
    for (const auto& item : root) {
        const std::string key = item.first.Scalar();
        if (key == "plan_overrides") has_overrides = true;
        if (key != "plan_overrides" &&
            !nearest_names(key, std::array<std::string_view, 1>{"plan_overrides"}, 1).empty()) {
            hints += "; " + shown(key) + " at " + detail::position(item.first) +
                     " is not it (did you mean `plan_overrides`?)";
        }
        if (!nested) {
            if (auto found = detail::nested_overrides(item.second, key)) nested = std::move(found);
        }
        guarded([&] { top_level_key(item.first, item.second); });
    }
    if (nested) {
        const std::string where = "a plan_overrides under '" + nested->second + "'";
        if (!has_overrides) {
            hints += "; " + where + " at " + detail::position(nested->first) +
                     " is not read: famspec reads it only at the top level";
        } else {
            note(nested->first, where + " is not read by famspec: only the top-level one is");
        }
    }
    if (!has_overrides) fail(root, "expected a top-level plan_overrides list" + hints);
}

void Reader::top_level_key(const YamlNode& key_node, const YamlNode& value) {
    const std::string key = key_node.Scalar();
    if (key == "plan_overrides") {
        if (value.IsNull()) return;
        if (!value.IsSequence()) fail(value, "'plan_overrides': expected a list, found " + kind_of(value));
        if (value.size() > limits.max_entries) {
            fail(value, "plan_overrides has " + std::to_string(value.size()) + " entries; the limit is " +
                            std::to_string(limits.max_entries));
        }
        for (const auto& element : value) guarded([&] { plan.entries.push_back(entry(element)); });
    } else if (key == "model_type" || key == "architecture") {
        (key == "model_type" ? plan.model_type : plan.architecture) = detail::family_name(value, key);
    } else if (key == "codegen") {
        // `codegen: true`, or a section of the runtime's own settings.
        if (!value.IsMap()) boolean(value, key);
    } else if (key == "model") {
        plan.model_target = model_target(value);
        for (const auto& item : value) {  // a sequence's items have no key: only a map's are looked at
            if (item.first.IsScalar() && item.first.Scalar() == "model_type") {
                note(item.first,
                     "model.model_type is not read by famspec: the family comes from the top-level model_type or "
                     "architecture, else from model._target_ (or --model-type)");
            }
        }
    } else if (const auto word = unread_top_level_key(key)) {
        // Any other section is the runtime's; only a near miss of a key famspec reads is worth a word.
        unread(key_node, *word);
    }
}

// One error that stops everything: an unreadable file, a size over the limit.
PlanParse failed(PlanError error) { return unexpected(PlanErrors{{std::move(error)}, false}); }

}  // namespace

PlanFamily plan_family(const Plan& plan, const std::optional<std::string>& model_type) {
    if (model_type) return {model_type, FamilySource::caller};
    if (plan.model_type) return {plan.model_type, FamilySource::model_type};
    if (plan.architecture) return {plan.architecture, FamilySource::architecture};
    if (plan.model_target) {
        if (auto directory = detail::family_directory(*plan.model_target)) {
            return {std::move(directory), FamilySource::model_target};
        }
    }
    return {std::nullopt, FamilySource::per_target};
}

std::optional<std::string> effective_model_type(const Plan& plan, const std::optional<std::string>& model_type) {
    return plan_family(plan, model_type).name;
}

std::string PlanWarning::to_string() const {
    return file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column) + ": warning: " + message;
}

// An error about the file as a whole (it cannot be read) has no line: `file: message`.
std::string PlanError::to_string() const {
    if (location.line == 0) return file + ": " + message;
    return file + ":" + std::to_string(location.line) + ":" + std::to_string(location.column) + ": " + message;
}

PlanParse parse_plan_text(const std::string& text_in, const std::string& file_name, const PlanLimits& limits,
                          bool strict) {
    if (text_in.size() > limits.max_bytes) {
        return failed(PlanError{
            file_name,
            {1, 1},
            "plan is " + std::to_string(text_in.size()) + " bytes; the limit is " + std::to_string(limits.max_bytes)});
    }
    // The runtime's loader reads a config as UTF-8 text, and so does famspec: UTF-16 or UTF-32 text is
    // refused by name rather than read differently (plan_encoding.cpp). A UTF-8 byte-order mark is
    // skipped, as the runtime's loader skips it, so that positions count from the first character.
    if (std::string wide = detail::wide_encoding(text_in); !wide.empty()) {
        return failed(PlanError{file_name, {1, 1}, std::move(wide)});
    }
    const std::string_view body = detail::without_utf8_bom(text_in);
    // yaml-cpp reads a NUL byte as the end of a scalar or an escape; say what it is instead.
    if (const std::size_t nul = body.find('\0'); nul != std::string::npos) {
        return failed(PlanError{file_name, detail::location_at(body, nul), "the plan contains a NUL byte"});
    }
    std::size_t bad = 0;
    if (const std::string why = detail::invalid_utf8(body, bad); !why.empty()) {
        return failed(PlanError{file_name, detail::location_at(body, bad), "the plan is " + why});
    }
    using detail::at;
    PlanErrors result;
    Plan plan;
    plan.file = file_name;
    Reader reader{plan, limits, strict, {}};
    // The failures kept along the way, plus the one that stopped reading, if any.
    try {
        // Copied only when a byte-order mark is left out.
        const detail::YamlDocument document = body.size() == text_in.size()
                                                  ? detail::load_one_document(text_in, limits.max_nodes)
                                                  : detail::load_one_document(std::string(body), limits.max_nodes);
        reader.root(document.root);
        if (reader.failures.empty()) return plan;
    } catch (PlanFailure& failure) {
        reader.failures.push_back(std::move(failure));
    } catch (const TooManyErrors&) {
        result.stopped_early = true;
    } catch (const YAML::DeepRecursion& error) {
        reader.failures.push_back(
            {at(error.mark), "nesting deeper than " + std::to_string(limits.max_depth) + " levels"});
    } catch (const YAML::Exception& error) {
        reader.failures.push_back({at(error.mark), "not valid YAML: " + error.msg});
    } catch (const std::exception& error) {
        // A backstop: whatever the YAML reader throws, the caller gets an error, not a terminate.
        reader.failures.push_back({{1, 1}, std::string("cannot read the plan: ") + error.what()});
    }
    std::stable_sort(reader.failures.begin(), reader.failures.end(), [](const auto& a, const auto& b) {
        return std::tie(a.location.line, a.location.column) < std::tie(b.location.line, b.location.column);
    });
    for (PlanFailure& failure : reader.failures) {
        result.errors.push_back(PlanError{file_name, failure.location, std::move(failure.message)});
    }
    return unexpected(std::move(result));
}

PlanParse parse_plan_file(const std::string& path, const PlanLimits& limits, bool strict) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec) return failed(PlanError{path, {}, "cannot read the plan: " + ec.message()});
    if (std::filesystem::is_directory(status)) {
        return failed(PlanError{path, {}, "cannot read the plan: it is a directory, not a plan file"});
    }
    if (!std::filesystem::is_regular_file(status)) {
        return failed(PlanError{path, {}, "cannot read the plan: it is not a regular file"});
    }
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return failed(PlanError{path, {}, "cannot read the plan: " + ec.message()});
    if (size > limits.max_bytes) {
        return failed(
            PlanError{path,
                      {1, 1},
                      "plan is " + std::to_string(size) + " bytes; the limit is " + std::to_string(limits.max_bytes)});
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return failed(PlanError{path, {}, "cannot open the plan"});
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parse_plan_text(buffer.str(), path, limits, strict);
}

}  // namespace famspec
