#include "famspec/elf_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>

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
    explicit FileHandle(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
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

}  // namespace

ElfInfo read_elf_info(const std::string& path) {
    ElfInfo info;
    static std::once_flag version_once;
    std::call_once(version_once, [] { elf_version(EV_CURRENT); });

    const FileHandle file(path);
    if (file.get() < 0) {
        info.error = std::string("cannot open: ") + std::strerror(errno);
        return info;
    }
    const ElfHandle elf(file.get());
    if (elf.get() == nullptr || elf_kind(elf.get()) != ELF_K_ELF) {
        info.error = "not an ELF file";
        return info;
    }
    GElf_Ehdr header;
    if (gelf_getehdr(elf.get(), &header) == nullptr) {
        info.error = std::string("truncated or corrupt ELF header: ") + elf_errmsg(-1);
        return info;
    }
    // libelf reads a section table that lies past the end of the file as an empty one; say what it is.
    struct stat status {};
    std::size_t sections = 0;
    if (::fstat(file.get(), &status) != 0 || elf_getshdrnum(elf.get(), &sections) != 0) {
        info.error = std::string("truncated or corrupt ELF file: ") + elf_errmsg(-1);
        return info;
    }
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if (header.e_shoff != 0 && (sections == 0 || header.e_shoff > size ||
                                std::uint64_t{header.e_shentsize} * sections > size - header.e_shoff)) {
        info.error = "truncated ELF file: its section table at offset " + std::to_string(header.e_shoff) +
                     " lies past the end of the file (" + std::to_string(size) + " bytes)";
        return info;
    }
    if (header.e_type != ET_DYN) {
        info.error = "not an ELF shared object (e_type " + std::to_string(header.e_type) + ")";
        return info;
    }
    std::size_t names_index = 0;
    if (elf_getshdrstrndx(elf.get(), &names_index) != 0) {
        info.error = std::string("truncated or corrupt ELF section table: ") + elf_errmsg(-1);
        return info;
    }
    Elf_Scn* section = nullptr;
    while ((section = elf_nextscn(elf.get(), section)) != nullptr) {
        GElf_Shdr section_header;
        if (gelf_getshdr(section, &section_header) == nullptr) {
            info.error = std::string("corrupt ELF section header: ") + elf_errmsg(-1);
            return info;
        }
        const char* name = elf_strptr(elf.get(), names_index, section_header.sh_name);
        if (name == nullptr) continue;
        if (section_header.sh_type == SHT_NOTE && std::strcmp(name, ".note.gnu.build-id") == 0) {
            info.build_id = build_id_of(section);
        } else if (std::strcmp(name, kManifestSection) == 0) {
            if (section_header.sh_size > kMaxManifestBytes) {
                info.error = "manifest section is " + std::to_string(section_header.sh_size) + " bytes; the limit is " +
                             std::to_string(kMaxManifestBytes);
                return info;
            }
            Elf_Data* data = elf_getdata(section, nullptr);
            if (data == nullptr || (data->d_buf == nullptr && data->d_size > 0)) {
                info.error = std::string("manifest section cannot be read (truncated file?): ") + elf_errmsg(-1);
                return info;
            }
            info.manifest = std::string(static_cast<const char*>(data->d_buf), data->d_size);
        }
    }
    info.is_elf = true;
    return info;
}

}  // namespace famspec
