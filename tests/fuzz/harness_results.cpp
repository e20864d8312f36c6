#include "harness_results.hpp"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cstdint>
#include <vector>

#include "copied_bytes.hpp"
#include "famspec/canonical_json.hpp"
#include "famspec/declaration_summary.hpp"
#include "famspec/elf_file.hpp"
#include "famspec/fingerprint.hpp"
#include "famspec/names.hpp"
#include "famspec/plan_option.hpp"
#include "famspec/plugin_loader.hpp"
#include "famspec/python_text.hpp"
#include "famspec/table_view.hpp"
#include "loading/table_manifest.hpp"
#include "registry/copy_budget.hpp"
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

template <class Lists>
std::string claims(const Lists& l) {
    return "families=" + std::to_string(l.families.size()) + " factories=" + std::to_string(l.factories.size()) +
           " cp_wrappers=" + std::to_string(l.cp_wrappers.size()) +
           " archetypes=" + std::to_string(l.archetypes.size()) + " components=" + std::to_string(l.components.size());
}

// The section's bytes as the ELF reader stores them: in 8-byte words, so aligned for every row.
TableSection section_of(const std::string& bytes) {
    TableSection section;
    section.size = bytes.size();
    section.words.resize((bytes.size() + 7) / 8);
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(section.words.data()));
    return section;
}

// Whether the file's table section passes TableView::check(), decided here without the loader.
bool tables_readable(const ElfInfo& elf) {
    if (!elf.is_elf || !elf.tables || elf.tables->size < tables::kHeaderSizeAbi50) return false;
    const auto& header = *static_cast<const tables::TableHeader*>(elf.tables->data());
    return !tables::TableView(header, elf.tables->size).check();
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

Answer loader_answer(const std::string& path, std::string& violation) {
    LoadOptions options;
    options.files = {path};
    options.log = [](LogLevel, std::string_view) {};
    const auto registry = load_plugins(options);
    const auto records = registry->plugins();
    if (records.size() != 1) {
        violation = std::to_string(records.size()) + " plugin records for one file";
        return {"error", "no single record"};
    }
    const PluginRecord& record = records.front();
    if (registry->all_ok() != record.ok()) violation = "all_ok() disagrees with the plugin's record";
    // The loader's answer against the file read again, by the ELF reader and the table check alone.
    const ElfInfo elf = read_elf_info(path);
    if (record.ok()) {
        if (!record.manifest) violation = "a loaded plugin without a manifest";
        if (!tables_readable(elf)) violation = "a plugin loaded whose tables do not pass the check";
        if (record.manifest && elf.tables && record.manifest->table_bytes > elf.tables->size) {
            violation = "a manifest of a block larger than its section";
        }
        return {"value", record.manifest ? claims(*record.manifest) : "no manifest"};
    }
    const PluginError& error = *record.error;
    if (error.stage == PluginStage::find || error.stage == PluginStage::trust) {
        violation = "a scratch plugin refused at stage " + std::string(name_of(error.stage));
    }
    if (!elf.is_elf && error.stage != PluginStage::manifest) {
        violation = "a file that is no readable ELF refused at stage " + std::string(name_of(error.stage));
    }
    if (error.message.find(path) == std::string::npos || error.path != path) {
        violation = "a refusal that does not name the file: " + error.message;
    }
    // The scratch path differs from run to run: the answer names it PLUGIN.
    std::string message = error.message;
    for (std::size_t at = message.find(path); at != std::string::npos; at = message.find(path, at)) {
        message.replace(at, path.size(), "PLUGIN");
    }
    return {"error", std::string(name_of(error.stage)) + ": " + message};
}

std::uint64_t copy_bound(std::uint64_t byte_size) { return detail::kCopyMultiple * byte_size + detail::kCopyAllowance; }

Answer tables_answer(const std::string& block, std::string& violation) {
    // The compatibility stage refuses a section shorter than a header before the check reads one.
    if (block.size() < tables::kHeaderSizeAbi50) return {"error", "shorter than a table header"};
    const TableSection section = section_of(block);
    const auto& header = *static_cast<const tables::TableHeader*>(section.data());
    const tables::TableView view(header, section.size);
    if (const auto fault = view.check()) return {"error", "cannot be read: " + *fault};
    detail::CopyBudget budget(header.byte_size);
    detail::StagingRegistrar registrar("tables", "tables.so");
    PluginManifest manifest;
    try {
        manifest = detail::manifest_of(view, budget);
        detail::stage_tables(view, budget, registrar);
    } catch (const detail::CopyBudgetExceeded& exceeded) {
        return {"error", std::string("refused: ") + exceeded.what()};
    }
    if (manifest.families.size() != view.families().size() || manifest.table_bytes != header.byte_size) {
        violation = "a manifest that is not the block's";
    }
    const std::vector<std::string> errors = registrar.errors();
    const auto declared = std::move(registrar).take();
    if (declared.families.size() > view.families().size()) violation = "more families staged than the block has";
    // The property the budget exists for: what the core holds is bounded by the block's size.
    const std::uint64_t copied = copied_bytes(manifest) + copied_bytes(declared) + copied_bytes(errors);
    if (copied > copy_bound(header.byte_size)) {
        violation = "a block of " + std::to_string(header.byte_size) + " bytes made the core hold " +
                    std::to_string(copied) + " bytes of text, over the budget's " +
                    std::to_string(copy_bound(header.byte_size));
    }
    if (!errors.empty()) return {"error", "rejected: " + errors.front()};
    return {"value", claims(declared)};
}

}  // namespace famspec::fuzz
