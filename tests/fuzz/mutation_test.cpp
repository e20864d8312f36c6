// Deterministic mutation smoke tests: thousands of seeded corruptions of a real plugin file (read by
// the ELF reader and by the loader), of its block of tables and of a real plan, each of which must be
// answered with a value or a clear error.
// The inputs run in a child process; a crash or a hang is reported with the input that caused it and
// the run resumes after it, so one finding does not hide the next.
#include <doctest/doctest.h>
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "famspec/elf_file.hpp"
#include "famspec/plan.hpp"
#include "famspec/sdk/abi.hpp"
#include "famspec/sdk/table_layout.hpp"
#include "fuzz_support.hpp"
#include "harness_results.hpp"
#include "parser_results.hpp"

namespace fuzz = famspec::fuzz;

namespace {

constexpr std::uint64_t kSeed = 0x5eed'f00d'cafe'0001ULL;
constexpr int kMaxRestarts = 25;

// Printable, bounded rendering of an input for a failure message.
std::string preview(const std::string& bytes) {
    std::string out;
    for (std::size_t i = 0; i < bytes.size() && out.size() < 160; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\n') {
            out += "\\n";
        } else if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            static constexpr char kDigits[] = "0123456789abcdef";
            out += "\\x";
            out += kDigits[c >> 4U];
            out += kDigits[c & 0xFU];
        }
    }
    return bytes.size() > 160 ? out + "... (" + std::to_string(bytes.size()) + " bytes)" : out;
}

// Per-outcome counts and the failures of one campaign.
struct Tally {
    std::map<std::string, std::size_t> outcomes;
    std::vector<std::string> failures;
};

// Runs inputs [0, count) in children; `one(i)` returns "<outcome>\t<violation>" for input i, and
// `before_child` restores any state a crashed child may have left behind.
Tally campaign(const std::string& what, std::size_t count, const std::function<std::string(std::size_t)>& label,
               const std::function<std::string(std::size_t)>& one, const std::function<void()>& before_child = {}) {
    Tally tally;
    std::size_t start = 0;
    for (int restarts = 0; start < count; ++restarts) {
        if (restarts > kMaxRestarts) {
            tally.failures.push_back(what + ": stopped after " + std::to_string(kMaxRestarts) + " crashes");
            break;
        }
        if (before_child) before_child();
        const fuzz::ChildOutcome child = fuzz::run_isolated(
            [&](fuzz::Channel& channel) {
                std::string batch;
                for (std::size_t i = start; i < count; ++i) {
                    channel.working_on("#" + std::to_string(i) + " " + label(i));
                    std::string answer = one(i);
                    std::replace(answer.begin(), answer.end(), '\n', ' ');
                    batch += std::to_string(i) + '\t' + answer + '\n';
                    if (batch.size() > 4096) {
                        channel.send(batch);
                        batch.clear();
                    }
                }
                channel.send(batch);
            },
            fuzz::kHangLimit);
        std::istringstream lines(child.output);
        std::string line;
        std::size_t last = start;
        while (std::getline(lines, line)) {
            const std::size_t a = line.find('\t');
            const std::size_t b = line.find('\t', a + 1);
            last = std::stoul(line.substr(0, a)) + 1;
            ++tally.outcomes[line.substr(a + 1, b - a - 1)];
            const std::string violation = line.substr(b + 1);
            if (!violation.empty()) tally.failures.push_back(what + " " + label(last - 1) + ": " + violation);
        }
        if (child.kind == fuzz::ChildOutcome::Kind::finished) break;
        // The child stopped on the input it announced last; record it and resume after it.
        std::size_t failed = last;
        if (child.last_label.starts_with("#")) failed = std::stoul(child.last_label.substr(1));
        tally.failures.push_back(what + ": the parser " + child.describe());
        ++tally.outcomes["crash or hang"];
        start = failed + 1;
    }
    return tally;
}

// Checks that every input was answered, and lists the failures grouped by kind (the message with its
// numbers removed), with the count and the first input of each kind.
void report(const Tally& tally, std::size_t count) {
    std::size_t answered = 0;
    for (const auto& [outcome, n] : tally.outcomes) {
        MESSAGE(outcome << ": " << n);
        answered += n;
    }
    CHECK(answered == count);
    std::map<std::string, std::pair<std::size_t, std::string>> kinds;
    for (const std::string& failure : tally.failures) {
        const std::size_t colon = failure.rfind(": ");
        std::string kind = colon == std::string::npos ? failure : failure.substr(colon + 2);
        kind.erase(std::remove_if(kind.begin(), kind.end(), [](char c) { return c >= '0' && c <= '9'; }), kind.end());
        auto& [n, first] = kinds[kind.substr(0, 120)];
        if (n++ == 0) first = failure;
    }
    for (const auto& [kind, seen] : kinds) {
        FAIL_CHECK(seen.second << " (" << seen.first << std::string(seen.first == 1 ? " input" : " inputs")
                               << " of this kind)");
    }
}

// Mutations of a text input, drawn from one seeded generator.
class TextMutator {
public:
    TextMutator(std::uint64_t seed, std::vector<std::string> tokens) : rng_(seed), tokens_(std::move(tokens)) {}

    std::string operator()(std::string text, std::string& how) {
        const int rounds = 1 + static_cast<int>(pick(3));
        for (int r = 0; r < rounds; ++r) text = once(std::move(text), how);
        return text;
    }

private:
    std::uint64_t pick(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }

    std::string once(std::string text, std::string& how) {
        const std::size_t at = static_cast<std::size_t>(pick(text.size() + 1));
        const std::string where = "@" + std::to_string(at);
        switch (pick(7)) {
            case 0:
                if (at < text.size()) text[at] = static_cast<char>(text[at] ^ (1U << pick(8)));
                how += " flip" + where;
                break;
            case 1:
                if (at < text.size()) text[at] = static_cast<char>(pick(256));
                how += " byte" + where;
                break;
            case 2:
                text.erase(at, 1 + pick(16));
                how += " erase" + where;
                break;
            case 3: {
                const std::string& token = tokens_[pick(tokens_.size())];
                text.insert(at, token);
                how += " insert'" + preview(token) + "'" + where;
                break;
            }
            case 4: {
                const std::string slice = text.substr(at, 1 + pick(64));
                text.insert(static_cast<std::size_t>(pick(text.size() + 1)), slice);
                how += " duplicate" + where;
                break;
            }
            case 5: {
                const std::string& token = tokens_[pick(tokens_.size())];
                text.replace(at, 1 + pick(8), token);
                how += " replace'" + preview(token) + "'" + where;
                break;
            }
            default:
                text.resize(at);
                how += " truncate" + where;
                break;
        }
        return text;
    }

    std::mt19937_64 rng_;
    std::vector<std::string> tokens_;
};

// One corruption of the plugin file: bytes to overwrite, and optionally a length to cut it to.
struct ElfMutation {
    std::string label;
    std::vector<std::pair<std::uint64_t, std::string>> writes;
    std::optional<std::uint64_t> truncate;
};

std::string le(std::uint64_t value, unsigned width) {
    std::string out(width, '\0');
    fuzz::put_le(out, 0, value, width);
    return out;
}

std::vector<ElfMutation> elf_mutations(const std::string& original) {
    const fuzz::ElfLayout layout = fuzz::elf_layout(original);
    const std::uint64_t size = original.size();
    std::vector<ElfMutation> out;
    const std::vector<std::uint64_t> values = {0,
                                               1,
                                               7,
                                               64,
                                               size - 1,
                                               size,
                                               size + 1,
                                               famspec::kMaxTableBytes,
                                               famspec::kMaxTableBytes + 1,
                                               1ULL << 32,
                                               1ULL << 63,
                                               ~0ULL - 7,
                                               ~0ULL};

    struct Field {
        const char* name;
        std::uint64_t offset;
        unsigned width;
    };
    const std::vector<Field> header_fields = {{"e_ident[EI_CLASS]", EI_CLASS, 1},
                                              {"e_ident[EI_DATA]", EI_DATA, 1},
                                              {"e_ident[EI_VERSION]", EI_VERSION, 1},
                                              {"e_type", offsetof(Elf64_Ehdr, e_type), 2},
                                              {"e_version", offsetof(Elf64_Ehdr, e_version), 4},
                                              {"e_phoff", offsetof(Elf64_Ehdr, e_phoff), 8},
                                              {"e_shoff", offsetof(Elf64_Ehdr, e_shoff), 8},
                                              {"e_ehsize", offsetof(Elf64_Ehdr, e_ehsize), 2},
                                              {"e_phentsize", offsetof(Elf64_Ehdr, e_phentsize), 2},
                                              {"e_phnum", offsetof(Elf64_Ehdr, e_phnum), 2},
                                              {"e_shentsize", offsetof(Elf64_Ehdr, e_shentsize), 2},
                                              {"e_shnum", offsetof(Elf64_Ehdr, e_shnum), 2},
                                              {"e_shstrndx", offsetof(Elf64_Ehdr, e_shstrndx), 2}};
    const std::uint64_t shnum = layout.sections.size();
    for (const Field& field : header_fields) {
        std::vector<std::uint64_t> candidates = values;
        for (const std::uint64_t v : {shnum - 1, shnum, shnum + 1, std::uint64_t{0xFF00}, std::uint64_t{0xFFFF},
                                      layout.section_table + 1, layout.section_table - 64}) {
            candidates.push_back(v);
        }
        for (const std::uint64_t v : candidates) {
            out.push_back(
                {std::string(field.name) + "=" + std::to_string(v), {{field.offset, le(v, field.width)}}, {}});
        }
    }

    const std::vector<Field> section_fields = {
        {"sh_name", offsetof(Elf64_Shdr, sh_name), 4},      {"sh_type", offsetof(Elf64_Shdr, sh_type), 4},
        {"sh_flags", offsetof(Elf64_Shdr, sh_flags), 8},    {"sh_offset", offsetof(Elf64_Shdr, sh_offset), 8},
        {"sh_size", offsetof(Elf64_Shdr, sh_size), 8},      {"sh_link", offsetof(Elf64_Shdr, sh_link), 4},
        {"sh_entsize", offsetof(Elf64_Shdr, sh_entsize), 8}};
    const std::vector<std::uint64_t> types = {SHT_NULL, SHT_NOBITS, SHT_NOTE, SHT_STRTAB, 0x6fffffff};
    for (std::size_t s = 0; s < layout.sections.size(); ++s) {
        const auto& section = layout.sections[s];
        const bool key = section.name == famspec::kTableSection || section.name == ".note.gnu.build-id" ||
                         section.name == ".shstrtab";
        for (const Field& field : section_fields) {
            std::vector<std::uint64_t> candidates;
            if (field.name == std::string("sh_type")) {
                candidates = types;
            } else if (field.name == std::string("sh_flags")) {
                candidates = {SHF_COMPRESSED, ~0ULL};
            } else if (key) {
                candidates = values;
                candidates.push_back(section.size + 1);
                candidates.push_back(size - section.offset);
                candidates.push_back(size - section.offset + 1);
            } else {
                candidates = {0, size, ~0ULL};
            }
            for (const std::uint64_t v : candidates) {
                out.push_back({section.name + "." + field.name + "=" + std::to_string(v),
                               {{section.header_offset + field.offset, le(v, field.width)}},
                               {}});
            }
        }
    }

    // Size bombs: the table section claims up to 2^64 bytes, from an offset inside or past the file.
    const auto& tables = layout.section(famspec::kTableSection);
    for (const std::uint64_t bomb : {std::uint64_t{famspec::kMaxTableBytes}, std::uint64_t{famspec::kMaxTableBytes} + 1,
                                     std::uint64_t{1} << 31, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
        for (const std::uint64_t offset : {tables.offset, std::uint64_t{0}, size - 1, size - bomb % size}) {
            out.push_back({"table section size bomb " + std::to_string(bomb) + " at " + std::to_string(offset),
                           {{tables.header_offset + offsetof(Elf64_Shdr, sh_offset), le(offset, 8)},
                            {tables.header_offset + offsetof(Elf64_Shdr, sh_size), le(bomb, 8)}},
                           {}});
        }
    }
    // The program headers: a loaded segment's offset and file size.
    Elf64_Ehdr header;
    std::memcpy(&header, original.data(), sizeof header);
    for (std::uint64_t i = 0; i < header.e_phnum; ++i) {
        const std::uint64_t at = header.e_phoff + i * sizeof(Elf64_Phdr);
        for (const std::uint64_t v : {size - 1, size, size + 1, std::uint64_t{~0ULL - 7}}) {
            out.push_back({"segment " + std::to_string(i) + " p_filesz=" + std::to_string(v),
                           {{at + offsetof(Elf64_Phdr, p_filesz), le(v, 8)}},
                           {}});
            out.push_back({"segment " + std::to_string(i) + " p_offset=" + std::to_string(v),
                           {{at + offsetof(Elf64_Phdr, p_offset), le(v, 8)}},
                           {}});
        }
    }

    // Truncation at many offsets: every byte of the ELF header, every section header boundary, inside
    // the table section and the build-id note, and spread over the rest of the file.
    std::vector<std::uint64_t> cuts;
    for (std::uint64_t at = 0; at <= 72; ++at) cuts.push_back(at);
    for (std::uint64_t s = 0; s <= shnum; ++s) {
        for (const std::uint64_t d : {0, 1, 32, 63}) cuts.push_back(layout.section_table + s * 64 + d);
    }
    for (const auto* name : {famspec::kTableSection, ".note.gnu.build-id", ".shstrtab"}) {
        const auto& section = layout.section(name);
        for (std::uint64_t d = 0; d <= 16; ++d) cuts.push_back(section.offset + d * section.size / 16);
    }
    for (std::uint64_t k = 1; k < 64; ++k) cuts.push_back(size * k / 64);
    for (const std::uint64_t at : cuts) {
        if (at < size) out.push_back({"truncate to " + std::to_string(at), {}, at});
    }

    // Bit flips and small overwrites, mostly where the reader looks: the ELF header, the section table,
    // the section names, the table section (its header most) and the build-id note.
    std::mt19937_64 rng(kSeed);
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> regions = {
        {0, 64},
        {layout.section_table, shnum * 64},
        {layout.section(".shstrtab").offset, layout.section(".shstrtab").size},
        {tables.offset, tables.size},
        {tables.offset, sizeof(famspec::tables::TableHeader)},
        {layout.section(".note.gnu.build-id").offset, layout.section(".note.gnu.build-id").size},
        {0, size}};
    for (int i = 0; i < 1500; ++i) {
        const auto& [begin, length] = regions[rng() % regions.size()];
        const std::uint64_t at = begin + rng() % length;
        if (i % 3 == 2) {
            const unsigned width = 1 + static_cast<unsigned>(rng() % 8);
            const std::uint64_t v = rng();
            out.push_back(
                {"overwrite " + std::to_string(width) + " bytes at " + std::to_string(at), {{at, le(v, width)}}, {}});
        } else {
            const auto bit = static_cast<unsigned>(rng() % 8);
            std::string byte(1, static_cast<char>(original[at] ^ (1U << bit)));
            out.push_back({"flip bit " + std::to_string(bit) + " at " + std::to_string(at), {{at, byte}}, {}});
        }
    }
    return out;
}

// Applies and undoes a mutation on the working copy, so thousands of variants cost no full copies.
class WorkingCopy {
public:
    WorkingCopy(std::string path, const std::string& original) : path_(std::move(path)), original_(original) {
        reset();
    }
    void reset() const { fuzz::write_file(path_, original_); }
    void apply(const ElfMutation& m) const {
        const int fd = ::open(path_.c_str(), O_WRONLY);
        for (const auto& [at, bytes] : m.writes) {
            if (at + bytes.size() <= original_.size()) write_at(fd, bytes, at);
        }
        if (m.truncate && ::ftruncate(fd, static_cast<off_t>(*m.truncate)) != 0) _exit(91);
        ::close(fd);
    }
    void undo(const ElfMutation& m) const {
        const int fd = ::open(path_.c_str(), O_WRONLY);
        for (const auto& [at, bytes] : m.writes) {
            if (at + bytes.size() <= original_.size()) write_at(fd, original_.substr(at, bytes.size()), at);
        }
        if (m.truncate) write_at(fd, original_.substr(*m.truncate), *m.truncate);
        ::close(fd);
    }
    const std::string& path() const { return path_; }

private:
    static void write_at(int fd, const std::string& bytes, std::uint64_t at) {
        if (::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(at)) != static_cast<ssize_t>(bytes.size())) {
            _exit(92);
        }
    }
    std::string path_;
    const std::string& original_;
};

}  // namespace

TEST_CASE("mutated copies of a shipped plugin: read_elf_info and the loader answer every one") {
    const std::string plugin = fuzz::first_plugin();
    const std::string original = fuzz::read_file(plugin);
    const famspec::ElfInfo baseline = famspec::read_elf_info(plugin);
    REQUIRE(baseline.is_elf);
    REQUIRE(baseline.tables.has_value());
    REQUIRE_FALSE(baseline.build_id.empty());

    const std::vector<ElfMutation> mutations = elf_mutations(original);
    REQUIRE(mutations.size() > 2000);
    const fuzz::TempDir dir;
    const WorkingCopy copy(dir.path() + "/famspec_mutant.so", original);
    std::map<std::string, std::size_t> loads;
    const Tally tally = campaign(
        "elf", mutations.size(), [&](std::size_t i) { return mutations[i].label; },
        [&](std::size_t i) {
            copy.apply(mutations[i]);
            const int fd = ::open(copy.path().c_str(), O_RDONLY | O_CLOEXEC);
            const famspec::ElfInfo info = famspec::read_elf_info(fd);
            ::close(fd);
            std::string violation = fuzz::elf_contract_violation(info);
            // The loader on the same file: read, checked, staged or refused at its stage.
            std::string loader_violation;
            const fuzz::Answer loaded = fuzz::loader_answer(copy.path(), loader_violation);
            if (violation.empty() && !loader_violation.empty()) violation = "loader: " + loader_violation;
            copy.undo(mutations[i]);
            const std::string stage =
                loaded.outcome == "value" ? "loaded" : loaded.detail.substr(0, loaded.detail.find(':'));
            return fuzz::answer_of(info).outcome + ", " + stage + '\t' + violation;
        },
        [&] { copy.reset(); });
    report(tally, mutations.size());
    // The mutations must reach every answer of the reader and the loader's stages, or they test nothing.
    std::set<std::string> reader, loader;
    for (const auto& [outcome, n] : tally.outcomes) {
        reader.insert(outcome.substr(0, outcome.find(',')));
        if (outcome.find(", ") != std::string::npos) loader.insert(outcome.substr(outcome.find(", ") + 2));
    }
    CHECK(reader.count("error") == 1);
    CHECK(reader.count("tables") == 1);
    for (const char* stage : {"loaded", "manifest", "compatibility", "register"}) {
        CAPTURE(stage);
        CHECK(loader.count(stage) == 1);
    }
    CHECK(famspec::read_elf_info(copy.path()).build_id == baseline.build_id);  // undo restored the file
}

// `count` mutated copies of `original`, each with a label saying how it was mutated.
static std::pair<std::vector<std::string>, std::vector<std::string>> mutants_of(TextMutator& mutate,
                                                                                const std::string& original,
                                                                                int count) {
    std::vector<std::string> inputs;
    std::vector<std::string> labels;
    for (int i = 0; i < count; ++i) {
        std::string how;
        inputs.push_back(mutate(original, how));
        labels.push_back(how);
    }
    return {std::move(inputs), std::move(labels)};
}

TEST_CASE("mutated copies of a real block of tables: each is refused whole or staged within its budget") {
    const famspec::ElfInfo plugin = famspec::read_elf_info(fuzz::first_plugin());
    REQUIRE(plugin.tables.has_value());
    const std::string original(static_cast<const char*>(plugin.tables->data()), plugin.tables->size);
    std::string none;
    REQUIRE(fuzz::tables_answer(original, none).outcome == "value");

    // Integers a row or the header may hold: the edges of a count, an offset, a kind.
    TextMutator mutate(kSeed + 2, {std::string(4, '\0'), std::string(4, '\xff'), std::string("\xff\xff\xff\x7f"),
                                   std::string("\x01\0\0\0"), std::string("\x98\0\0\0"), std::string(1, '\x80'),
                                   std::string("\xc0\xaf"), std::string("\xed\xa0\x80"), std::string(8, '\0')});
    const auto [inputs, labels] = mutants_of(mutate, original, 4000);
    const Tally tally = campaign(
        "tables", inputs.size(), [&](std::size_t i) { return labels[i]; },
        [&](std::size_t i) {
            std::string violation;
            const fuzz::Answer answer = fuzz::tables_answer(inputs[i], violation);
            return answer.outcome + '\t' + violation;
        });
    report(tally, inputs.size());
    CHECK(tally.outcomes.count("error") == 1);
    CHECK(tally.outcomes.count("value") == 1);
}

TEST_CASE("mutated copies of a real plan: parse_plan_text answers every one, errors with a line and column") {
    const std::string original = fuzz::read_file(fuzz::corpus_dir("plan") + "/valid_qwen3_moe.yaml");
    REQUIRE(famspec::parse_plan_text(original, "plan.yaml").has_value());

    TextMutator mutate(kSeed + 1, {"\n",
                                   "  ",
                                   "\t",
                                   "- ",
                                   ": ",
                                   "{",
                                   "}",
                                   "[",
                                   "]",
                                   "\"",
                                   "'",
                                   "&a ",
                                   "*a",
                                   "<<: ",
                                   "!!str ",
                                   "!!map ",
                                   "---\n",
                                   "...\n",
                                   "? ",
                                   "|\n",
                                   ">\n",
                                   "#",
                                   "null",
                                   "~",
                                   "true",
                                   "-1",
                                   "0x1F",
                                   "1e-5",
                                   "9e999",
                                   "99999999999999999999",
                                   std::string(1, '\0'),
                                   "\xff\xfe",
                                   "match: x\n",
                                   "plan_overrides:\n",
                                   "_target_: a.b\n"});
    const auto [inputs, labels] = mutants_of(mutate, original, 5000);
    const Tally tally = campaign(
        "plan", inputs.size(), [&](std::size_t i) { return labels[i] + " -> " + preview(inputs[i]); },
        [&](std::size_t i) {
            const famspec::PlanParse parsed = famspec::parse_plan_text(inputs[i], "plan.yaml");
            return fuzz::answer_of(parsed).outcome + '\t' + fuzz::plan_contract_violation(parsed);
        });
    report(tally, inputs.size());
    CHECK(tally.outcomes.count("error") == 1);
    CHECK(tally.outcomes.count("value") == 1);
}

// The section table sits at the end of a shared object, so every strict prefix of a plugin loses some
// of it: each must be refused with an error, never read as a plugin without tables.
TEST_CASE("every truncation of a shipped plugin is refused") {
    const std::string original = fuzz::read_file(fuzz::first_plugin());
    const fuzz::TempDir dir;
    const std::string path = dir.path() + "/famspec_truncated.so";
    const std::uint64_t step = std::max<std::uint64_t>(1, original.size() / 4096);
    std::size_t refused = 0;
    std::size_t cuts = 0;
    for (std::uint64_t at = 0; at < original.size(); at += (at < 4096 ? 1 : step)) {
        fuzz::write_file(path, original.substr(0, at));
        const famspec::ElfInfo info = famspec::read_elf_info(path);
        ++cuts;
        if (!info.is_elf && !info.error.empty() && !info.tables) {
            ++refused;
        } else {
            FAIL_CHECK("a prefix of " << at << " bytes was read as " << (info.tables ? "tables" : "no tables"));
        }
    }
    CHECK(cuts > 4096);
    CHECK(refused == cuts);
}
