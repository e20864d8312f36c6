// libFuzzer harness for read_elf_info. The reader takes a path, so each input is written to one
// temporary file per process; a manifest found in the input is handed on to parse_manifest, as the
// loader does.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "famspec/elf_file.hpp"
#include "famspec/plugin_manifest.hpp"

namespace {

std::string& input_path() {
    static std::string path = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "famspec-fuzz-elf-XXXXXX").string();
        const int fd = ::mkstemp(pattern.data());
        if (fd < 0) std::abort();
        ::close(fd);
        std::atexit([] { ::unlink(input_path().c_str()); });
        return pattern;
    }();
    return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
    std::FILE* file = std::fopen(input_path().c_str(), "wb");
    if (file == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    write_input(data, size);
    const famspec::ElfInfo info = famspec::read_elf_info(input_path());
    // The contract: an ELF answer without an error, or an error that says something.
    if (info.is_elf == !info.error.empty()) std::abort();
    if (info.manifest) {
        if (info.manifest->size() > famspec::kMaxManifestBytes) std::abort();
        const famspec::ManifestParse parsed = famspec::parse_manifest(*info.manifest);
        if (!parsed && parsed.error().empty()) std::abort();  // a refusal says why
    }
    return 0;
}
