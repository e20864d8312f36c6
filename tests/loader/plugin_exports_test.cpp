// What a shipped plugin file exports, seen by a reader other than famspec's: Boost.DLL's
// library_info. The design says the block is a plugin's only export, `famspec_plugin_tables`, in a
// section of its own; famspec itself never looks the symbol up (it reads the section), so nothing
// else would notice a plugin that exports code. library_info is used here, on files this build made,
// and not on the load path or on a file a user names (docs/performance.md, "Boost.DLL's
// library_info"; docs/security.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/dll/library_info.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "famspec/elf_file.hpp"
#include "famspec/sdk/abi.hpp"
#include "process.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shipped_plugins() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(famspec::test::plugin_dir())) {
        if (entry.path().extension() == ".so") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("every shipped plugin exports its block and nothing else, and famspec reads that block") {
    const std::vector<fs::path> files = shipped_plugins();
    REQUIRE(std::count(files.begin(), files.end(), fs::path(famspec::test::plugin_dir()) / "famspec_qwen3_moe.so") ==
            1);
    for (const fs::path& file : files) {
        CAPTURE(file.string());
        boost::dll::library_info info(file);
        CHECK(info.symbols() == std::vector<std::string>{famspec::kEntrySymbol});
        const std::vector<std::string> sections = info.sections();
        CHECK(std::count(sections.begin(), sections.end(), famspec::kTableSection) == 1);
        const famspec::ElfInfo elf = famspec::read_elf_info(file.string());
        CHECK(elf.error == "");
        CHECK(elf.tables.has_value());
    }
}
