// A fresh directory for one test, removed with its contents when the test ends.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace famspec::test {

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "famspec-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
        path_ = pattern;
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// One plugin reached four ways in `dir`: orig.so, a symlink link.so, a hardlink hard.so, and a
// byte-identical copy copy.so (same ELF build-id).
inline void reach_one_file_four_ways(const TempDir& dir, const std::filesystem::path& plugin) {
    std::filesystem::copy_file(plugin, dir / "orig.so");
    std::filesystem::create_symlink(dir / "orig.so", dir / "link.so");
    std::filesystem::create_hard_link(dir / "orig.so", dir / "hard.so");
    std::filesystem::copy_file(plugin, dir / "copy.so");
}

}  // namespace famspec::test
