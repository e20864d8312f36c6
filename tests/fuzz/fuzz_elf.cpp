// libFuzzer harness for read_elf_info(fd), as the loader calls it on the descriptor it checked: each
// input is written to one file per process and read through a descriptor. A table section found in it
// is handed on to the tables harness's path (checked, claimed, staged), as the loader would.
// Aborts on any broken contract (parser_results.hpp, harness_results.hpp).
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "famspec/elf_file.hpp"
#include "fuzz_input_file.hpp"
#include "harness_results.hpp"
#include "parser_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    famspec::fuzz::write_input(data, size);
    const int fd = ::open(famspec::fuzz::input_path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) std::abort();
    const famspec::ElfInfo info = famspec::read_elf_info(fd);
    ::close(fd);
    if (!famspec::fuzz::elf_contract_violation(info).empty()) std::abort();
    if (info.tables) {
        const auto* bytes = reinterpret_cast<const char*>(info.tables->data());
        std::string violation;
        famspec::fuzz::tables_answer(std::string(bytes, info.tables->size), violation);
        if (!violation.empty()) std::abort();
    }
    return 0;
}
