#include "harness_results.hpp"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cstdint>
#include <vector>

#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_option.hpp"
#include "famspec/plugin_inspection.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/python_text.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/table_view.hpp"
#include "loading/plugin_compatibility.hpp"
#include "probe_report.hpp"
#include "registry/staging_registrar.hpp"
#include "registry/table_staging.hpp"

namespace famspec::fuzz {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t eol = text.find('\n'); eol != std::string::npos; eol = text.find('\n', start)) {
        lines.push_back(text.substr(start, eol - start));
        start = eol + 1;
    }
    lines.push_back(text.substr(start));
    return lines;
}

bool has_control(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
}

bool is_identifier(const std::string& name) {
    const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    return !name.empty() && alpha(name[0]) &&
           std::all_of(name.begin(), name.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

// Why an entry of a summary breaks the answer's invariants, or empty.
std::string entry_violation(const SummaryEntry& entry, bool strict) {
    const bool has_value =
        entry.slot == Slot::replace_module ? entry.replacement != nullptr : entry.strategy != nullptr;
    if ((entry.status == ResolutionStatus::resolved) != has_value)
        return "a value exactly when resolved: " + entry.target;
    if ((entry.status == ResolutionStatus::not_covered) != entry.gap.has_value()) {
        return "a gap exactly when not covered: " + entry.target;
    }
    if (entry.status == ResolutionStatus::not_covered && entry.reason.empty()) {
        return "not covered without a reason: " + entry.target;
    }
    const bool answered = entry.status == ResolutionStatus::resolved || entry.status == ResolutionStatus::native;
    if (strict && answered && !entry.diagnostics.empty()) return "strict, answered, with diagnostics: " + entry.target;
    return {};
}

std::string summary_violation(const DeclarationSummary& lenient, const DeclarationSummary& strict,
                              const std::string& fresh_digest) {
    if (lenient.entries.size() != strict.entries.size()) return "strict and lenient summaries differ in length";
    for (const auto& entry : lenient.entries) {
        if (auto v = entry_violation(entry, false); !v.empty()) return v;
    }
    for (const auto& entry : strict.entries) {
        if (auto v = entry_violation(entry, true); !v.empty()) return v;
    }
    const std::string json = lenient.canonical_json();
    if (json != lenient.canonical_json()) return "the summary's bytes differ between two calls";
    boost::system::error_code ec;
    const auto value = boost::json::parse(json, ec);
    if (ec || canonical_json(value) != json) return "the summary is not canonical JSON";
    const std::string digest = lenient.digest();
    if (digest != sha256_digest(json) || digest.size() != 71 || !digest.starts_with("sha256:")) {
        return "the digest is not sha256: over the summary's bytes: " + digest;
    }
    if (fresh_digest != digest) return "a resolver with an empty cache gives another digest";
    return {};
}

std::string count(const DeclarationSummary& summary, ResolutionStatus status) {
    return std::to_string(std::count_if(summary.entries.begin(), summary.entries.end(),
                                        [&](const SummaryEntry& e) { return e.status == status; }));
}

PluginRecord record_of(const std::string& path, const PluginManifest& manifest) {
    return PluginRecord{.path = path,
                        .paths = {path},
                        .build_id = {},
                        .manifest = std::make_shared<const PluginManifest>(manifest),
                        .error = {},
                        .notes = {}};
}

bool claims_anything(const PluginManifest& m) {
    return !m.families.empty() || !m.factories.empty() || !m.archetypes.empty() || !m.cp_wrappers.empty() ||
           !m.components.empty();
}

// Every item of one list is in the other: what the drift check compares (duplicates do not count).
template <class T>
bool same_items(const std::vector<T>& a, const std::vector<T>& b) {
    const auto all_in = [](const std::vector<T>& from, const std::vector<T>& into) {
        return std::all_of(from.begin(), from.end(),
                           [&](const T& x) { return std::find(into.begin(), into.end(), x) != into.end(); });
    };
    return all_in(a, b) && all_in(b, a);
}

bool same_declarations(const PluginManifest& a, const PluginManifest& b) {
    return a.name == b.name && a.version == b.version && a.abi_major == b.abi_major && a.abi_minor == b.abi_minor &&
           a.descriptor_size == b.descriptor_size && a.fingerprint == b.fingerprint &&
           same_items(a.families, b.families) && same_items(a.factories, b.factories) &&
           same_items(a.archetypes, b.archetypes) && same_items(a.cp_wrappers, b.cp_wrappers) &&
           same_items(a.components, b.components);
}

// The compatibility decision on one manifest, checked against what it must be; "ok" or "refused".
std::string compatibility(const std::string& path, const PluginManifest& m, std::string& violation) {
    const auto error = detail::check_compatibility(
        path, PluginStage::compatibility, {m.name, m.abi_major, m.abi_minor, m.descriptor_size, m.fingerprint});
    const bool abi_fits =
        m.abi_major == kAbiMajor && m.abi_minor <= kAbiMinor && m.descriptor_size >= kMinDescriptorSize;
    if (abi_fits && m.fingerprint == core_fingerprint() && error) violation = "this core's own build refused";
    if (!abi_fits && !error) violation = "another ABI accepted";
    if (error && (!error->message.starts_with(path + ": plugin '" + m.name + "' ") ||
                  error->message.find("; this core is ABI ") == std::string::npos)) {
        violation = "a compatibility refusal that does not name both sides: " + error->message;
    }
    return error ? "refused" : "ok";
}

// Claims shared between the two manifests refuse both of them, or neither.
std::string conflicts(const PluginManifest& a, const PluginManifest& b, std::string& violation) {
    std::vector<PluginRecord> alone{record_of("a.so", a)};
    mark_conflicts(alone);
    if (!alone[0].ok()) violation = "a plugin conflicts with itself";
    std::vector<PluginRecord> twice{record_of("a.so", a), record_of("copy.so", a)};
    mark_conflicts(twice);
    if (twice[0].ok() == claims_anything(a) || twice[1].ok() == claims_anything(a)) {
        violation = "a plugin and its copy are not both refused for what they claim";
    }
    std::vector<PluginRecord> pair{record_of("a.so", a), record_of("b.so", b)};
    mark_conflicts(pair);
    if (pair[0].ok() != pair[1].ok()) violation = "a shared claim refused one plugin only";
    if (!pair[0].ok() && pair[0].error->message.find("(b.so)") == std::string::npos) {
        violation = "a conflict that does not name the other plugin: " + pair[0].error->message;
    }
    return pair[0].ok() ? "no" : "yes";
}

}  // namespace

Answer resolution_answer(const std::string& plan_text, const std::shared_ptr<const Registry>& registry,
                         const Resolver& warm, std::string& violation) {
    const PlanParse parsed = parse_plan_text(plan_text, "fuzz.yaml");
    violation = plan_contract_violation(parsed, {}, plan_text);
    if (!parsed) return answer_of(parsed);
    const DeclarationSummary lenient = warm.declaration_summary(std::nullopt, *parsed);
    const DeclarationSummary strict = warm.declaration_summary(std::nullopt, *parsed, true);
    const Resolver fresh(registry);
    const std::string fresh_digest = fresh.declaration_summary(std::nullopt, *parsed).digest();
    if (violation.empty()) violation = summary_violation(lenient, strict, fresh_digest);
    return {"value", "entries=" + std::to_string(lenient.entries.size()) +
                         " resolved=" + count(lenient, ResolutionStatus::resolved) +
                         " native=" + count(lenient, ResolutionStatus::native) +
                         " not_covered=" + count(lenient, ResolutionStatus::not_covered) +
                         " error=" + count(lenient, ResolutionStatus::error) + " digest=" + lenient.digest()};
}

Answer option_answer(const std::string& text, std::string& violation) {
    std::string options;
    for (const std::string& line : lines_of(text)) {
        const auto parsed = parse_option(line);
        if (!parsed) {
            const PlanError& e = parsed.error();
            if (e.file != "--option" || e.location.line != 1 || e.location.column == 0 || e.message.empty()) {
                violation = "an --option error without its file, line, column or message: " + e.to_string();
            }
            return {"error", e.message, e.location.line, e.location.column};
        }
        const std::string& name = parsed->first;
        if (!is_identifier(name) || line.compare(0, name.size() + 1, name + "=") != 0) {
            violation = "an accepted option whose name is not the identifier before '=': " + name;
        }
        options += name + "=" + to_python(parsed->second) + "\n";
    }
    return {"value", options};
}

Answer report_answer(const std::string& text, std::string& violation) {
    cli::ProbeReport report;
    cli::ReportReader reader(report);
    reader.feed(text);
    reader.finish();
    if (!from_name<PluginStage>(report.stage)) violation = "the report names an unknown stage: " + report.stage;
    if (report.error && (!report.has_result || report.error->message.empty())) {
        violation = "an error without a result line or a message";
    }
    if (!report.malformed.empty()) {
        if (has_control(report.malformed)) violation = "a control character in: " + report.malformed;
        return {"error", report.malformed};
    }
    const std::string result = !report.has_result ? "none"
                               : report.error     ? "error(" + std::string(name_of(report.error->stage)) + ")"
                                                  : "ok";
    return {"value", "stage=" + report.stage + " result=" + result};
}

Answer loader_answer(const std::string& text, std::string& violation) {
    const std::size_t split = text.find('\0');
    const ManifestParse a = parse_manifest(std::string_view(text).substr(0, split));
    if (!a) return {"error", "a: " + a.error()};
    const ManifestParse b = split == std::string::npos ? a : parse_manifest(std::string_view(text).substr(split + 1));
    if (!b) return {"error", "b: " + b.error()};
    std::string detail = "a=" + compatibility("a.so", *a, violation);
    detail += " b=" + compatibility("b.so", *b, violation);
    const auto drift = manifest_differences(*a, *b);
    if (!manifest_differences(*a, *a).empty()) violation = "a manifest drifts from itself";
    if (drift.size() != manifest_differences(*b, *a).size()) violation = "drift is not symmetric";
    if (drift.empty() != same_declarations(*a, *b)) {
        violation = "drift found " + std::to_string(drift.size()) + " differences between manifests that are " +
                    (drift.empty() ? "different" : "the same");
    }
    detail += " drift=" + std::to_string(drift.size());
    detail += " shared=" + conflicts(*a, *b, violation);
    return {"value", detail};
}

Answer tables_answer(const std::string& block, std::string& violation) {
    // The loader has proved that the header and byte_size bytes lie in the plugin's read-only data;
    // here the input's own length stands for them. A copy, aligned as the rows are in a plugin.
    if (block.size() < sizeof(tables::TableHeader)) return {"error", "shorter than a table header"};
    std::vector<std::uint64_t> aligned(block.size() / sizeof(std::uint64_t) + 1);
    std::copy(block.begin(), block.end(), reinterpret_cast<char*>(aligned.data()));
    const auto& header = *reinterpret_cast<const tables::TableHeader*>(aligned.data());
    if (header.byte_size > block.size()) {
        return {"error", "its tables (" + std::to_string(header.byte_size) + " bytes) run past the input (" +
                             std::to_string(block.size()) + " bytes)"};
    }
    const tables::TableView view(header);
    if (const auto fault = view.check()) return {"error", "cannot be read: " + *fault};
    detail::StagingRegistrar registrar("tables", "tables.so", nullptr);
    detail::stage_tables(view, registrar);
    if (!registrar.errors().empty()) return {"error", "rejected: " + registrar.errors().front()};
    const auto declared = std::move(registrar).take();
    if (declared.families.size() > view.families().size()) violation = "more families staged than the block has";
    return {"value", "families=" + std::to_string(declared.families.size()) +
                         " factories=" + std::to_string(declared.factories.size()) +
                         " cp_wrappers=" + std::to_string(declared.cp_wrappers.size()) +
                         " archetypes=" + std::to_string(declared.archetypes.size()) +
                         " components=" + std::to_string(declared.components.size())};
}

}  // namespace famspec::fuzz
