// The documentation's code is real: every cpp/cmake block in docs/*.md is a marked region of a file
// the build compiles, and the examples do what the text says they do.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "embedding.hpp"
#include "famspec/explanation.hpp"
#include "process.hpp"

namespace fs = std::filesystem;
using famspec::test::fixture_dir;
using famspec::test::source_dir;

namespace {

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot read ", path.string());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// Removes the indentation common to every non-blank line, so a region inside a function reads as
// it does in the document.
std::string dedent(const std::vector<std::string>& lines) {
    std::size_t common = std::string::npos;
    for (const auto& line : lines) {
        const std::size_t indent = line.find_first_not_of(' ');
        if (indent != std::string::npos) common = std::min(common, indent);
    }
    std::string out;
    for (const auto& line : lines)
        out += (line.size() >= common && common != std::string::npos ? line.substr(common) : "") + "\n";
    return out;
}

// The lines between "[snippet:NAME]" and "[/snippet:NAME]" markers (in a // or # comment).
std::string region(const fs::path& file, const std::string& name) {
    const auto lines = lines_of(read(file));
    std::vector<std::string> inside;
    bool open = false;
    bool found = false;
    for (const auto& line : lines) {
        if (line.find("[/snippet:" + name + "]") != std::string::npos) {
            open = false;
            continue;
        }
        if (line.find("[snippet:" + name + "]") != std::string::npos) {
            open = true;
            found = true;
            continue;
        }
        if (open) inside.push_back(line);
    }
    REQUIRE_MESSAGE(found, "no region '", name, "' in ", file.string());
    return dedent(inside);
}

struct Block {
    std::string document;
    std::size_t line = 0;  // of the opening fence
    std::string language;
    std::string source;  // "path/from/repo#region", from the <!-- snippet: ... --> line above the fence
    std::string text;
};

std::vector<Block> code_blocks(const fs::path& document) {
    const auto lines = lines_of(read(document));
    std::vector<Block> blocks;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].starts_with("```") || lines[i].size() == 3) continue;
        Block block{document.filename().string(), i + 1, lines[i].substr(3), {}, {}};
        const std::string marker = "<!-- snippet: ";
        if (i > 0 && lines[i - 1].starts_with(marker) && lines[i - 1].ends_with(" -->")) {
            block.source = lines[i - 1].substr(marker.size(), lines[i - 1].size() - marker.size() - 4);
        }
        std::vector<std::string> body;
        for (++i; i < lines.size() && lines[i] != "```"; ++i) body.push_back(lines[i]);
        block.text = dedent(body);
        blocks.push_back(std::move(block));
    }
    return blocks;
}

const std::string kAdapter = "hyper_parallel.models.docs_moe.adapter.";

}  // namespace

TEST_CASE("every cpp and cmake block in docs/ is a region of a compiled file") {
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(source_dir()) / "docs")) {
        if (entry.path().extension() != ".md") continue;
        for (const Block& block : code_blocks(entry.path())) {
            if (block.language != "cpp" && block.language != "cmake") continue;
            CAPTURE(block.document);
            CAPTURE(block.line);
            REQUIRE_MESSAGE(!block.source.empty(), "a ", block.language,
                            " block needs a <!-- snippet: FILE#REGION --> line above it");
            const std::size_t hash = block.source.find('#');
            REQUIRE(hash != std::string::npos);
            CHECK(block.text ==
                  region(fs::path(source_dir()) / block.source.substr(0, hash), block.source.substr(hash + 1)));
            ++checked;
        }
    }
    CHECK(checked >= 10);  // the three documents quote at least this many
}

TEST_CASE("the plugin-authors walkthrough resolves through every channel") {
    const auto registry = docs::load_families({fixture_dir("docs_family")});
    REQUIRE(docs::plugin_failures(*registry).empty());
    const famspec::Resolver resolver(registry);

    const auto factory =
        docs::replacement_for(resolver, kAdapter + "replacements.replace_docs_moe_rms_norm", "docs", "m.DocsNorm");
    REQUIRE(factory);
    CHECK(factory->new_ctor == "DocsRMSNorm");
    CHECK(factory->old_ctor == "DocsNorm");
    CHECK(factory->mode == famspec::ConstructionMode::wrap_source);
    CHECK(factory->keyword_args == std::vector<std::string>{"module_fqn=''", "context=None", "eps=1e-06"});

    // The same factory under the second provider module: an equal spec.
    const auto newer = docs::replacement_for(
        resolver, kAdapter + "conversion.module_replacement.replace_docs_moe_rms_norm", "docs", "m.DocsNorm");
    REQUIRE(newer);
    CHECK(*newer == *factory);

    const auto with_option = resolver.replacement_spec_for(kAdapter + "replacements.replace_docs_moe_rms_norm",
                                                           "docs_moe", "m.DocsNorm", {{"eps", 1e-5}});
    REQUIRE(with_option.resolved());
    CHECK(with_option.resolved()->spec->keyword_args.back() == "eps=1e-05");

    const auto runtime =
        resolver.replacement_spec_for(kAdapter + "replacements.replace_docs_moe_experts", "docs_moe", "m.Experts");
    CHECK(runtime.status() == famspec::ResolutionStatus::native);
    CHECK(runtime.reason() == "runtime-only factory: builds through GroupedExperts.from_module at runtime");

    const auto direct =
        resolver.replacement_spec_for("hyper_parallel.components.docs.DocsRMSNorm", std::nullopt, "m.DocsNorm");
    REQUIRE(direct.resolved());
    CHECK(direct.explanation->channel == "direct-component");
    CHECK(direct.resolved()->spec->new_ctor == "DocsRMSNorm");

    const auto wrapper =
        resolver.strategy_spec_for(kAdapter + "distributed.context_parallel.docs_moe_attention_cp_wrapper", "docs_moe",
                                   famspec::Slot::inner_wrapper);
    REQUIRE(wrapper.resolved());
    CHECK(wrapper.resolved()->spec->kind == "cp_attention");

    // A value outside the option's Literal[...] values: a diagnostic that lists them.
    famspec::ResolveRequest mla;
    mla.target = kAdapter + "distributed.context_parallel.docs_moe_mla_cp_wrapper";
    mla.model_type = "docs_moe";
    mla.slot = famspec::Slot::inner_wrapper;
    mla.options = {{"backend", famspec::PyLiteral("tpu")}};
    const auto outside = resolver.strategy_spec_for(mla);
    REQUIRE(outside.resolved());
    REQUIRE(outside.diagnostics.size() == 1);
    CHECK(outside.diagnostics[0].kind == famspec::DiagnosticKind::disallowed_value);
    CHECK(outside.diagnostics[0].suggestion == "'npu', 'sdpa'");

    const auto misplaced =
        resolver.strategy_spec_for(kAdapter + "distributed.context_parallel.docs_moe_attention_cp_wrapper", "docs_moe",
                                   famspec::Slot::local_compute_fn);
    CHECK(misplaced.reason() == "wrong slot: " + kAdapter +
                                    "distributed.context_parallel.docs_moe_attention_cp_wrapper is a CP wrapper of "
                                    "family 'docs_moe'; it belongs in inner_wrapper");

    // The directory alias makes a target under docs_moe2 belong to the family.
    CHECK(registry->find_family("docs_moe2") != nullptr);
    CHECK(registry->find_family("DocsMoeForCausalLM") != nullptr);
}

TEST_CASE("the embedding example resolves from several threads with one Resolver") {
    const auto registry = docs::load_families({fixture_dir("docs_family")});
    const std::string compute = kAdapter + "distributed.expert_parallel.docs_moe_ep_compute_fn";
    const auto classes = docs::resolve_in_parallel(registry, std::vector<std::string>(8, compute));
    CHECK(classes == std::vector<std::string>(8, "DocsMoeBlock"));
}

TEST_CASE("a duplicate registration is refused with both declaration sites") {
    const auto registry = docs::load_families({fixture_dir("docs_duplicate")});
    const auto failures = docs::plugin_failures(*registry);
    REQUIRE(failures.size() == 1);
    const std::string path = famspec::test::fixture_file("docs_duplicate").string();
    const std::string source = source_dir() + "/docs/snippets/duplicate_plugin.cpp";
    CHECK(failures[0] == "register: " + path +
                             ": registration rejected: factory "
                             "'hyper_parallel.models.docs_dup.adapter.replacements.replace_norm' registered twice (" +
                             source + ":16 and " + source + ":19)");
    CHECK(registry->families().empty());  // nothing of a refused plugin is visible
}
