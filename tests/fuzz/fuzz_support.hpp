// Shared by the fuzz replay tests: running a parser in a child process (so that a crash or a hang
// becomes a test failure naming the input instead of killing the test binary), file helpers, and a
// reader for the layout of a well-formed ELF64 file so that single header fields can be overwritten.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace famspec::fuzz {

// What the child can send back: a result text, and the input it is working on, so that a crash or a
// hang can be attributed to the last input it announced.
class Channel {
public:
    virtual ~Channel() = default;
    virtual void send(const std::string& text) = 0;
    virtual void working_on(const std::string& label) = 0;
};

struct ChildOutcome {
    enum class Kind { finished, crashed, threw, stalled };
    Kind kind = Kind::finished;
    int signal = 0;
    std::string output;      // everything the child sent
    std::string last_label;  // the last input the child announced
    std::string exception;   // what escaped, for Kind::threw
    double seconds = 0;

    std::string describe() const;  // "crashed with signal 11 (Segmentation fault) on <label>", ...
};

// How long one input may take before it counts as a hang. The largest legitimate inputs (a plan
// that expands aliases to the node limit) take about a second in Release; the sanitizers make the
// parser several times slower, and CI runs them on loaded machines.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr auto kHangLimit = std::chrono::seconds(30);
#else
inline constexpr auto kHangLimit = std::chrono::seconds(5);
#endif

// Runs body in a forked child. The child is killed when it announces no new input for `stall`.
ChildOutcome run_isolated(const std::function<void(Channel&)>& body, std::chrono::milliseconds stall);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);
std::vector<std::string> files_in(const std::string& directory);  // file names, sorted
std::string corpus_dir(const std::string& parser);                // tests/fuzz/corpus/<parser>
std::string first_plugin();                                       // a shipped famspec_*.so

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
public:
    TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// Offsets of the headers of a well-formed little-endian ELF64 file.
struct ElfLayout {
    struct Section {
        std::string name;
        std::uint64_t header_offset = 0;  // where its Elf64_Shdr is in the file
        std::uint32_t type = 0;
        std::uint64_t offset = 0;
        std::uint64_t size = 0;
    };
    std::uint64_t section_table = 0;
    std::vector<Section> sections;

    const Section& section(const std::string& name) const;
};
ElfLayout elf_layout(const std::string& bytes);  // throws std::runtime_error on a file it cannot read

// Overwrites the little-endian integer of `width` bytes at `offset`.
void put_le(std::string& bytes, std::uint64_t offset, std::uint64_t value, unsigned width);

}  // namespace famspec::fuzz
