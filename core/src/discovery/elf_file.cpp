#include "famspec/elf_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "famspec/expected.hpp"
#include "famspec/sdk/abi.hpp"

namespace famspec {
namespace {

class ElfHandle {
public:
    explicit ElfHandle(int fd) : elf_(elf_begin(fd, ELF_C_READ, nullptr)) {}
    ElfHandle(const ElfHandle&) = delete;
    ElfHandle& operator=(const ElfHandle&) = delete;
    ~ElfHandle() {
        if (elf_ != nullptr) elf_end(elf_);
    }
    Elf* get() const { return elf_; }

private:
    Elf* elf_;
};

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

std::string build_id_of(Elf_Scn* section) {
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || data->d_buf == nullptr) return {};
    GElf_Nhdr note;
    std::size_t name_offset = 0;
    std::size_t desc_offset = 0;
    std::size_t offset = 0;
    while ((offset = gelf_getnote(data, offset, &note, &name_offset, &desc_offset)) > 0) {
        const auto* base = static_cast<const unsigned char*>(data->d_buf);
        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(base + name_offset, "GNU", 4) == 0) {
            return hex(base + desc_offset, note.n_descsz);
        }
    }
    return {};
}

// libelf's last error text, or an empty string when it has none to give (never "no error").
std::string libelf_says() {
    const int error = elf_errno();
    return error == 0 ? std::string() : std::string(": ") + elf_errmsg(error);
}

// Why a file that libelf does not take for an ELF object is not one, as precisely as its first bytes tell.
std::string not_elf(int fd, std::uint64_t size) {
    std::array<char, 4> magic{};
    const bool elf_magic =
        ::pread(fd, magic.data(), magic.size(), 0) == 4 && std::memcmp(magic.data(), ELFMAG, SELFMAG) == 0;
    if (!elf_magic) return "not an ELF file";
    if (size < sizeof(Elf64_Ehdr)) return "truncated ELF header (" + std::to_string(size) + " bytes)";
    return "corrupt ELF identification (class, byte order or version)";
}

// The index of the section-name table, once the header, the section table and the name table are
// sound and the file is a shared object; else what is wrong.
Expected<std::size_t, std::string> checked_layout(Elf* elf, std::uint64_t size) {
    GElf_Ehdr header;
    if (gelf_getehdr(elf, &header) == nullptr) return unexpected("truncated or corrupt ELF header" + libelf_says());
    // libelf reads a section table that lies past the end of the file as an empty one; say what it is.
    std::size_t sections = 0;
    if (elf_getshdrnum(elf, &sections) != 0)
        return unexpected("truncated or corrupt ELF section table" + libelf_says());
    if (header.e_shoff != 0 && (sections == 0 || header.e_shoff > size ||
                                std::uint64_t{header.e_shentsize} * sections > size - header.e_shoff)) {
        return unexpected("truncated ELF file: its section table at offset " + std::to_string(header.e_shoff) +
                          " lies past the end of the file (" + std::to_string(size) + " bytes)");
    }
    if (header.e_type != ET_DYN) {
        return unexpected("not an ELF shared object (e_type " + std::to_string(header.e_type) + ")");
    }
    // Section names come from the section-name table: it must be a string table inside the file, or
    // every lookup would quietly find nothing and a manifest would look absent.
    std::size_t names_index = 0;
    GElf_Shdr names_header;
    Elf_Scn* names = nullptr;
    if (elf_getshdrstrndx(elf, &names_index) != 0 || (names = elf_getscn(elf, names_index)) == nullptr ||
        gelf_getshdr(names, &names_header) == nullptr || names_header.sh_type != SHT_STRTAB ||
        names_header.sh_offset > size || names_header.sh_size > size - names_header.sh_offset) {
        return unexpected("corrupt ELF section-name table" + libelf_says());
    }
    return names_index;
}

// The contents of the manifest section, capped and inside the file; else why they cannot be taken.
Expected<std::string, std::string> manifest_contents(Elf_Scn* section, const GElf_Shdr& header, std::uint64_t size) {
    if (header.sh_type == SHT_NOBITS) {
        return unexpected(std::string("the ") + kManifestSection + " section has no contents (SHT_NOBITS)");
    }
    if (header.sh_size > kMaxManifestBytes) {
        return unexpected("manifest section is " + std::to_string(header.sh_size) + " bytes; the limit is " +
                          std::to_string(kMaxManifestBytes));
    }
    if (header.sh_offset > size || header.sh_size > size - header.sh_offset) {
        return unexpected("truncated ELF file: the manifest section lies past the end of the file (" +
                          std::to_string(size) + " bytes)");
    }
    Elf_Data* data = elf_getdata(section, nullptr);
    if (data == nullptr || (data->d_buf == nullptr && data->d_size > 0)) {
        return unexpected("manifest section cannot be read" + libelf_says());
    }
    return std::string(static_cast<const char*>(data->d_buf), data->d_size);
}

// Walks the named sections and keeps the build-id and the manifest in `info`; returns what is
// wrong with the section headers, or an empty string.
std::string read_sections(Elf* elf, std::size_t names_index, std::uint64_t size, ElfInfo& info) {
    Elf_Scn* section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) == nullptr) return "corrupt ELF section header" + libelf_says();
        const char* name = elf_strptr(elf, names_index, header.sh_name);
        if (name == nullptr) {
            return "corrupt ELF section name (offset " + std::to_string(header.sh_name) +
                   " is outside the section-name table)";
        }
        if (header.sh_type == SHT_NOTE && std::strcmp(name, ".note.gnu.build-id") == 0) {
            info.build_id = build_id_of(section);
        } else if (std::strcmp(name, kManifestSection) == 0) {
            if (info.manifest) return std::string("two ") + kManifestSection + " sections: the file was patched twice";
            auto contents = manifest_contents(section, header, size);
            if (!contents) return contents.error();
            info.manifest = std::move(*contents);
        }
    }
    return {};
}

ElfInfo read_file(int fd) {
    ElfInfo info;
    static std::once_flag version_once;
    std::call_once(version_once, [] { elf_version(EV_CURRENT); });

    struct stat status {};
    if (::fstat(fd, &status) != 0) {
        info.error = std::string("cannot read its status: ") + std::strerror(errno);
        return info;
    }
    if (!S_ISREG(status.st_mode)) {
        info.error = "not a regular file";
        return info;
    }
    const auto size = static_cast<std::uint64_t>(status.st_size);
    (void)elf_errno();  // clear an error left by an earlier file
    const ElfHandle elf(fd);
    if (elf.get() == nullptr || elf_kind(elf.get()) != ELF_K_ELF) {
        info.error = not_elf(fd, size);
        return info;
    }
    const auto names_index = checked_layout(elf.get(), size);
    if (!names_index) {
        info.error = names_index.error();
        return info;
    }
    info.error = read_sections(elf.get(), *names_index, size, info);
    info.is_elf = info.error.empty();
    return info;
}

}  // namespace

ElfInfo read_elf_info(int fd) {
    ElfInfo info = read_file(fd);
    // An answer is a readable ELF or an error, never half of each.
    if (!info.error.empty()) {
        info.is_elf = false;
        info.manifest.reset();
    }
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

}  // namespace famspec
