#include "famspec/elf_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "famspec/expected.hpp"
#include "famspec/sdk/abi.hpp"

// The file is read with a handful of preads (identification and header, the program and section
// tables, the section-name table, the build-id note and the table section), so nothing but what is
// asked is copied, nothing is mapped, and no ELF library is initialised on the load path. Both
// classes and both byte orders are read, so `famspec info` describes a plugin built for another
// machine.
namespace famspec {
namespace {

class FileHandle {
public:
    explicit FileHandle(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {}
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;
    ~FileHandle() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }

private:
    int fd_;
};

// Exactly `size` bytes at `offset`, or false (a short read is a truncation like any other).
bool read_exactly(int fd, void* into, std::size_t size, std::uint64_t offset) {
    auto* out = static_cast<char*>(into);
    while (size > 0) {
        const ssize_t got = ::pread(fd, out, size, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        out += got;
        size -= static_cast<std::size_t>(got);
        offset += static_cast<std::uint64_t>(got);
    }
    return true;
}

std::string hex(const unsigned char* bytes, std::size_t size) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += kDigits[bytes[i] >> 4U];
        out += kDigits[bytes[i] & 0xFU];
    }
    return out;
}

// The types of one ELF class; the reader below is written once for both.
struct Class32 {
    using Header = Elf32_Ehdr;
    using Section = Elf32_Shdr;
    using Segment = Elf32_Phdr;
};
struct Class64 {
    using Header = Elf64_Ehdr;
    using Section = Elf64_Shdr;
    using Segment = Elf64_Phdr;
};

// A section header with every field in host order and widened.
struct SectionView {
    std::uint32_t name = 0;
    std::uint32_t type = 0;
    std::uint64_t flags = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint32_t link = 0;
};

template <class Class>
class Reader {
public:
    Reader(int fd, std::uint64_t size, bool swap) : fd_(fd), size_(size), swap_(swap) {}

    std::string read(ElfInfo& info) {
        typename Class::Header header{};
        if (!read_exactly(fd_, &header, sizeof header, 0)) {
            return "truncated ELF header (" + std::to_string(size_) + " bytes)";
        }
        info.machine = host(header.e_machine);
        if (auto error = read_section_table(header); !error.empty()) return error;
        if (host(header.e_type) != ET_DYN) {
            return "not an ELF shared object (e_type " + std::to_string(host(header.e_type)) + ")";
        }
        if (auto error = check_segments(header); !error.empty()) return error;
        if (sections_.empty()) return {};
        if (auto error = read_names(); !error.empty()) return error;
        return read_sections(info);
    }

private:
    template <class T>
    T host(T value) const {
        if (!swap_) return value;
        if constexpr (sizeof(T) == 2) {
            return static_cast<T>(__builtin_bswap16(static_cast<std::uint16_t>(value)));
        } else if constexpr (sizeof(T) == 4) {
            return static_cast<T>(__builtin_bswap32(static_cast<std::uint32_t>(value)));
        } else {
            static_assert(sizeof(T) == 8);
            return static_cast<T>(__builtin_bswap64(static_cast<std::uint64_t>(value)));
        }
    }

    SectionView view(const typename Class::Section& section) const {
        return {host(section.sh_name),   host(section.sh_type), static_cast<std::uint64_t>(host(section.sh_flags)),
                host(section.sh_offset), host(section.sh_size), host(section.sh_link)};
    }

    bool inside(std::uint64_t offset, std::uint64_t length) const {
        return offset <= size_ && length <= size_ - offset;
    }

    // Every segment's bytes lie inside the file: a library whose segment runs past its end is
    // truncated (a dynamic linker would fault mapping it), and nothing else in it is trusted.
    std::string check_segments(const typename Class::Header& header) const {
        const std::uint64_t offset = host(header.e_phoff);
        const std::uint64_t count = host(header.e_phnum);
        if (offset == 0 || count == 0) return {};
        constexpr std::uint64_t entry = sizeof(typename Class::Segment);
        if (count > (size_ - std::min(offset, size_)) / entry) {
            return "truncated ELF file: its program header table at offset " + std::to_string(offset) +
                   " lies past the end of the file (" + std::to_string(size_) + " bytes)";
        }
        std::vector<typename Class::Segment> segments(count);
        if (!read_exactly(fd_, segments.data(), count * entry, offset)) {
            return "truncated or corrupt ELF program header table";
        }
        for (std::size_t i = 0; i < segments.size(); ++i) {
            const std::uint64_t at = host(segments[i].p_offset);
            const std::uint64_t bytes = host(segments[i].p_filesz);
            if (host(segments[i].p_type) == PT_LOAD && !inside(at, bytes)) {
                return "truncated ELF file: segment " + std::to_string(i) + " (offset " + std::to_string(at) + ", " +
                       std::to_string(bytes) + " bytes) lies past the end of the file (" + std::to_string(size_) +
                       " bytes)";
            }
        }
        return {};
    }

    std::string read_section_table(const typename Class::Header& header) {
        const std::uint64_t offset = host(header.e_shoff);
        if (offset == 0) return {};
        const std::string where = "its section table at offset " + std::to_string(offset);
        if (offset % alignof(typename Class::Section) != 0) {
            return "corrupt ELF section table: " + where + " is not aligned";
        }
        constexpr std::uint64_t entry = sizeof(typename Class::Section);
        // Section 0 carries the real count (and name-table index) when they do not fit the header.
        typename Class::Section first{};
        if (!inside(offset, entry) || !read_exactly(fd_, &first, entry, offset)) {
            return "truncated ELF file: " + where + " lies past the end of the file (" + std::to_string(size_) +
                   " bytes)";
        }
        std::uint64_t count = host(header.e_shnum);
        if (count == 0) count = view(first).size;
        // The stride is the class's own header size, whatever e_shentsize says; both must fit.
        const std::uint64_t declared = std::max<std::uint64_t>(host(header.e_shentsize), entry);
        if (count == 0 || count > (size_ - offset) / declared) {
            return "truncated ELF file: " + where + " lies past the end of the file (" + std::to_string(size_) +
                   " bytes)";
        }
        std::vector<typename Class::Section> raw(count);
        if (!read_exactly(fd_, raw.data(), count * entry, offset)) {
            return "truncated or corrupt ELF section table";
        }
        sections_.reserve(count);
        for (const auto& section : raw) sections_.push_back(view(section));
        names_index_ = host(header.e_shstrndx);
        if (names_index_ == SHN_XINDEX) names_index_ = sections_[0].link;
        return {};
    }

    // Section names come from the section-name table: it must be a string table inside the file, or
    // every lookup would quietly find nothing and a manifest would look absent.
    std::string read_names() {
        if (names_index_ == SHN_UNDEF || names_index_ >= sections_.size()) {
            return "corrupt ELF section-name table (index " + std::to_string(names_index_) + " of " +
                   std::to_string(sections_.size()) + " sections)";
        }
        const SectionView& names = sections_[names_index_];
        if (names.type != SHT_STRTAB || !inside(names.offset, names.size)) {
            return "corrupt ELF section-name table (not a string table inside the file)";
        }
        names_.resize(names.size);
        if (!read_exactly(fd_, names_.data(), names_.size(), names.offset)) {
            return "corrupt ELF section-name table (cannot be read)";
        }
        return {};
    }

    // The NUL-terminated name at `offset` in the section-name table, or null when it runs outside.
    const char* name_at(std::uint32_t offset) const {
        if (offset >= names_.size()) return nullptr;
        if (std::memchr(names_.data() + offset, '\0', names_.size() - offset) == nullptr) return nullptr;
        return names_.data() + offset;
    }

    std::string read_sections(ElfInfo& info) {
        for (std::size_t i = 1; i < sections_.size(); ++i) {
            const SectionView& section = sections_[i];
            const char* name = name_at(section.name);
            if (name == nullptr) {
                return "corrupt ELF section name (offset " + std::to_string(section.name) +
                       " is outside the section-name table)";
            }
            if (section.type == SHT_NOTE && std::strcmp(name, ".note.gnu.build-id") == 0) {
                info.build_id = build_id_of(section);
            } else if (std::strcmp(name, kLegacyManifestSection) == 0) {
                info.legacy_manifest = true;
            } else if (std::strcmp(name, kTableSection) == 0) {
                if (info.tables) return std::string("two ") + kTableSection + " sections";
                auto contents = table_contents(section);
                if (!contents) return contents.error();
                info.tables = std::move(*contents);
            }
        }
        return {};
    }

    // The GNU build-id from its note section; an unreadable note only loses the build-id.
    std::string build_id_of(const SectionView& section) const {
        constexpr std::uint64_t kMaxNote = 4096;
        if (section.size > kMaxNote || !inside(section.offset, section.size)) return {};
        std::vector<unsigned char> note(section.size);
        if (!read_exactly(fd_, note.data(), note.size(), section.offset)) return {};
        const auto padded = [](std::uint64_t n) { return (n + 3) & ~std::uint64_t{3}; };
        std::uint64_t at = 0;
        while (note.size() - at >= sizeof(Elf32_Nhdr)) {
            Elf32_Nhdr header{};
            std::memcpy(&header, note.data() + at, sizeof header);
            const std::uint64_t name_size = host(header.n_namesz);
            const std::uint64_t desc_size = host(header.n_descsz);
            const std::uint64_t name_at = at + sizeof header;
            if (padded(name_size) > note.size() - name_at) return {};
            const std::uint64_t desc_at = name_at + padded(name_size);
            if (desc_size > note.size() - desc_at) return {};
            if (host(header.n_type) == NT_GNU_BUILD_ID && name_size == 4 &&
                std::memcmp(note.data() + name_at, "GNU", 4) == 0) {
                return hex(note.data() + desc_at, desc_size);
            }
            if (padded(desc_size) > note.size() - desc_at) return {};
            at = desc_at + padded(desc_size);
        }
        return {};
    }

    // The contents of the table section: read-only data of the loaded image (what a plugin's constant
    // block is), capped and inside the file; else why they cannot be taken.
    Expected<TableSection, std::string> table_contents(const SectionView& section) const {
        const std::string what = std::string("the ") + kTableSection + " section";
        if (section.type != SHT_PROGBITS || (section.flags & SHF_ALLOC) == 0 || (section.flags & SHF_WRITE) != 0 ||
            (section.flags & SHF_EXECINSTR) != 0) {
            return unexpected(what + " is not read-only data (type " + std::to_string(section.type) + ", flags 0x" +
                              hex_number(section.flags) + "); build the plugin with famspec_add_plugin()");
        }
        if (section.size > kMaxTableBytes) {
            return unexpected(what + " is " + std::to_string(section.size) + " bytes; the limit is " +
                              std::to_string(kMaxTableBytes));
        }
        if (!inside(section.offset, section.size)) {
            return unexpected("truncated ELF file: " + what + " (offset " + std::to_string(section.offset) + ", " +
                              std::to_string(section.size) + " bytes) lies past the end of the file (" +
                              std::to_string(size_) + " bytes)");
        }
        TableSection contents;
        contents.size = section.size;
        contents.words.resize((section.size + 7) / 8);
        if (!read_exactly(fd_, contents.words.data(), contents.size, section.offset)) {
            return unexpected(what + " cannot be read: " + std::strerror(errno));
        }
        return contents;
    }

    static std::string hex_number(std::uint64_t value) {
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string out;
        do {
            out.insert(out.begin(), kDigits[value & 0xFU]);
            value >>= 4U;
        } while (value != 0);
        return out;
    }

    int fd_;
    std::uint64_t size_;
    bool swap_;
    std::vector<SectionView> sections_;
    std::uint64_t names_index_ = 0;
    std::string names_;
};

// Reads the identification bytes and hands the rest to the reader of the file's class.
std::string read_file(int fd, std::uint64_t size, ElfInfo& info) {
    unsigned char ident[EI_NIDENT] = {};
    const bool magic = read_exactly(fd, ident, SELFMAG, 0) && std::memcmp(ident, ELFMAG, SELFMAG) == 0;
    if (!magic) return "not an ELF file";
    if (size < EI_NIDENT || !read_exactly(fd, ident, EI_NIDENT, 0)) {
        return "truncated ELF header (" + std::to_string(size) + " bytes)";
    }
    const unsigned char elf_class = ident[EI_CLASS];
    const unsigned char order = ident[EI_DATA];
    if ((elf_class != ELFCLASS32 && elf_class != ELFCLASS64) || (order != ELFDATA2LSB && order != ELFDATA2MSB) ||
        ident[EI_VERSION] != EV_CURRENT) {
        return "corrupt ELF identification (class, byte order or version)";
    }
    const bool swap = (order == ELFDATA2LSB) != (std::endian::native == std::endian::little);
    info.elf_class = elf_class == ELFCLASS64 ? 64 : 32;
    info.big_endian = order == ELFDATA2MSB;
    if (elf_class == ELFCLASS64) return Reader<Class64>(fd, size, swap).read(info);
    return Reader<Class32>(fd, size, swap).read(info);
}

}  // namespace

ElfInfo read_elf_info(int fd) {
    ElfInfo info;
    struct stat status {};
    if (::fstat(fd, &status) != 0) {
        info.error = std::string("cannot read its status: ") + std::strerror(errno);
    } else if (!S_ISREG(status.st_mode)) {
        info.error = "not a regular file";
    } else {
        info.error = read_file(fd, static_cast<std::uint64_t>(status.st_size), info);
    }
    // An answer is a readable ELF or an error, never half of each.
    info.is_elf = info.error.empty();
    if (!info.is_elf) info.tables.reset();
    return info;
}

ElfInfo read_elf_info(const std::string& path) {
    // O_NONBLOCK: a FIFO or a device must be refused, not waited on.
    const FileHandle file(path);
    if (file.get() < 0) {
        ElfInfo info;
        info.error = std::string("cannot open: ") + std::strerror(errno);
        return info;
    }
    return read_elf_info(file.get());
}

std::uint16_t host_machine() {
#if defined(__x86_64__)
    return EM_X86_64;
#elif defined(__aarch64__)
    return EM_AARCH64;
#elif defined(__i386__)
    return EM_386;
#elif defined(__powerpc64__)
    return EM_PPC64;
#elif defined(__riscv)
    return EM_RISCV;
#else
    return EM_NONE;
#endif
}

std::string machine_name(std::uint16_t machine) {
    switch (machine) {
        case EM_X86_64:
            return "x86-64";
        case EM_AARCH64:
            return "AArch64";
        case EM_386:
            return "i386";
        case EM_PPC64:
            return "PowerPC64";
        case EM_RISCV:
            return "RISC-V";
        case EM_ARM:
            return "ARM";
        default:
            return "machine " + std::to_string(machine);
    }
}

}  // namespace famspec
