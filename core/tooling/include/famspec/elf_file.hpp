// Reads what famspec needs from a plugin file without loading it: the identification (class, byte
// order, machine), the GNU build-id and the contents of the `.famspec_tables` section, which is the
// plugin. The file is untrusted input, so every offset is checked against the file's size, sizes are
// capped and every error is a value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace famspec {

// A section's bytes, copied into storage aligned for any table row.
struct TableSection {
    std::vector<std::uint64_t> words;
    std::size_t size = 0;  // in bytes

    const void* data() const { return words.data(); }
};

struct ElfInfo {
    bool is_elf = false;
    std::string error;       // why the file is not a readable ELF shared object
    unsigned elf_class = 0;  // 32 or 64
    bool big_endian = false;
    std::uint16_t machine = 0;  // e_machine
    std::string build_id;       // lower-case hex, empty if the file has none
    std::optional<TableSection> tables;
    bool legacy_manifest = false;  // carries the .famspec_manifest section of ABI 4 and older
};

// The largest table section read (a plugin of 100,000 declarations is a few MiB).
inline constexpr std::size_t kMaxTableBytes = std::size_t{64} << 20;

ElfInfo read_elf_info(const std::string& path);
// The same from a descriptor the caller has open (and keeps open): the loader reads the very file it
// checked. Reads with pread only, so the file offset is left alone.
ElfInfo read_elf_info(int fd);

// The e_machine of the host famspec runs on (EM_X86_64 on x86-64), and the name of a machine.
std::uint16_t host_machine();
std::string machine_name(std::uint16_t machine);

}  // namespace famspec
