#include "fuzz_support.hpp"

#include <elf.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "process.hpp"

namespace fs = std::filesystem;

namespace famspec::fuzz {
namespace {

// Shared with the child: a counter bumped at every announced input, and the input's label.
struct Progress {
    std::atomic<std::uint64_t> counter;
    char label[1024];
    char exception[1024];
};

void copy_text(char (&to)[1024], const std::string& text) {
    const std::size_t n = std::min(text.size(), sizeof to - 1);
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

class PipeChannel : public Channel {
public:
    PipeChannel(int fd, Progress* progress) : fd_(fd), progress_(progress) {}
    void send(const std::string& text) override {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
            if (n <= 0) _exit(90);
            done += static_cast<std::size_t>(n);
        }
    }
    void working_on(const std::string& label) override {
        copy_text(progress_->label, label);
        progress_->counter.fetch_add(1);
    }

private:
    int fd_;
    Progress* progress_;
};

}  // namespace

std::string ChildOutcome::describe() const {
    const std::string on = last_label.empty() ? "" : " on " + last_label;
    switch (kind) {
        case Kind::finished:
            return "finished";
        case Kind::crashed:
            return "crashed with signal " + std::to_string(signal) + " (" + strsignal(signal) + ")" + on;
        case Kind::threw:
            return "let an exception escape (" + exception + ")" + on;
        case Kind::stalled:
            return "made no progress for the time limit (hang)" + on;
    }
    return "?";
}

ChildOutcome run_isolated(const std::function<void(Channel&)>& body, std::chrono::milliseconds stall) {
    void* shared = ::mmap(nullptr, sizeof(Progress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) throw std::runtime_error("mmap failed");
    auto* progress = new (shared) Progress{};
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        // The test framework's crash handlers belong to the parent; here a crash must just end the child.
        for (const int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, SIG_DFL);
        ::close(fds[0]);
        PipeChannel channel(fds[1], progress);
        try {
            body(channel);
        } catch (const std::exception& e) {
            copy_text(progress->exception, std::string(typeid(e).name()) + ": " + e.what());
            _exit(3);
        } catch (...) {
            copy_text(progress->exception, "a non-standard exception");
            _exit(3);
        }
        _exit(0);  // no atexit handlers: the parent's test framework state belongs to the parent
    }
    ::close(fds[1]);

    ChildOutcome outcome;
    std::uint64_t seen = 0;
    auto last_progress = std::chrono::steady_clock::now();
    bool open = true;
    int status = 0;
    bool reaped = false;
    char buffer[65536];
    while (!reaped) {
        if (open) {
            pollfd p{fds[0], POLLIN, 0};
            if (::poll(&p, 1, 20) > 0) {
                const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
                if (n > 0)
                    outcome.output.append(buffer, static_cast<std::size_t>(n));
                else
                    open = false;
            }
        } else {
            ::usleep(2000);
        }
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            break;
        }
        const std::uint64_t now_seen = progress->counter.load();
        if (now_seen != seen) {
            seen = now_seen;
            last_progress = std::chrono::steady_clock::now();
        } else if (std::chrono::steady_clock::now() - last_progress > stall) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            outcome.kind = ChildOutcome::Kind::stalled;
            reaped = true;
        }
    }
    while (open) {  // whatever is left in the pipe
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n <= 0) break;
        outcome.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    outcome.last_label = progress->label;
    if (outcome.kind != ChildOutcome::Kind::stalled) {
        if (WIFSIGNALED(status)) {
            outcome.kind = ChildOutcome::Kind::crashed;
            outcome.signal = WTERMSIG(status);
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            outcome.kind = ChildOutcome::Kind::threw;
            outcome.exception = progress->exception;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
            // ASan and UBSan report and exit with a status of their own.
            outcome.kind = ChildOutcome::Kind::crashed;
            outcome.signal = 0;
            outcome.exception = "exit status " + std::to_string(WEXITSTATUS(status));
        }
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::munmap(shared, sizeof(Progress));
    return outcome;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<std::string> files_in(const std::string& directory) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(directory)) {
        if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string corpus_dir(const std::string& parser) { return test::source_dir() + "/tests/fuzz/corpus/" + parser; }

std::string first_plugin() {
    for (const auto& name : files_in(test::plugin_dir())) {
        if (name.starts_with("famspec_") && name.ends_with(".so")) return test::plugin_dir() + "/" + name;
    }
    throw std::runtime_error("no famspec_*.so in " + test::plugin_dir());
}

TempDir::TempDir() {
    std::string pattern = (fs::temp_directory_path() / "famspec-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

const ElfLayout::Section& ElfLayout::section(const std::string& name) const {
    const auto found = std::find_if(sections.begin(), sections.end(), [&](const Section& s) { return s.name == name; });
    if (found == sections.end()) throw std::runtime_error("no section " + name);
    return *found;
}

ElfLayout elf_layout(const std::string& bytes) {
    Elf64_Ehdr header;
    if (bytes.size() < sizeof header) throw std::runtime_error("not an ELF64 file");
    std::memcpy(&header, bytes.data(), sizeof header);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_shentsize != sizeof(Elf64_Shdr) ||
        header.e_shoff + std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr) > bytes.size() ||
        header.e_shstrndx >= header.e_shnum) {
        throw std::runtime_error("not a well-formed little-endian ELF64 file");
    }
    std::vector<Elf64_Shdr> headers(header.e_shnum);
    std::memcpy(headers.data(), bytes.data() + header.e_shoff, headers.size() * sizeof(Elf64_Shdr));
    const Elf64_Shdr& names = headers[header.e_shstrndx];
    ElfLayout layout;
    layout.section_table = header.e_shoff;
    for (std::size_t i = 0; i < headers.size(); ++i) {
        const std::uint64_t name_at = names.sh_offset + headers[i].sh_name;
        if (name_at >= bytes.size()) throw std::runtime_error("section name out of range");
        layout.sections.push_back({std::string(bytes.c_str() + name_at), header.e_shoff + i * sizeof(Elf64_Shdr),
                                   headers[i].sh_type, headers[i].sh_offset, headers[i].sh_size});
    }
    return layout;
}

void put_le(std::string& bytes, std::uint64_t offset, std::uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width && offset + i < bytes.size(); ++i) {
        bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFFU);
    }
}

}  // namespace famspec::fuzz
