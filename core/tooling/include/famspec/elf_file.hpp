// Reads what famspec needs from a plugin file without loading it: the manifest section and the
// GNU build-id. The file is untrusted input, so sizes are capped and every error is a value.
#pragma once

#include <optional>
#include <string>

namespace famspec {

struct ElfInfo {
    bool is_elf = false;
    std::string error;                    // why the file is not a readable ELF shared object
    std::optional<std::string> manifest;  // section contents, if the section exists
    std::string build_id;                 // lower-case hex, empty if the file has none
};

inline constexpr std::size_t kMaxManifestBytes = std::size_t{1} << 20;

ElfInfo read_elf_info(const std::string& path);
// The same from a descriptor the caller has open (and keeps open): the loader reads the very file
// it later maps. Reads with pread only, so the file offset is left alone.
ElfInfo read_elf_info(int fd);

}  // namespace famspec
