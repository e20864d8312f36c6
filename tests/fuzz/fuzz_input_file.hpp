// The file a libFuzzer harness writes each input to, for code that reads plugin files by path or
// descriptor: one per process, in a private directory of its own (the loader's trust stage refuses a
// plugin in a directory others may write), removed at exit.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace famspec::fuzz {

inline const std::string& input_path() {
    // Never destroyed: the exit handler that removes the directory reads it after static destructors.
    static const std::string& path = *new std::string([] {
        std::string directory = (std::filesystem::temp_directory_path() / "famspec-fuzz-XXXXXX").string();
        if (::mkdtemp(directory.data()) == nullptr) std::abort();
        std::atexit([] { std::filesystem::remove_all(std::filesystem::path(input_path()).parent_path()); });
        return directory + "/famspec_input.so";
    }());
    return path;
}

inline void write_input(const std::uint8_t* data, std::size_t size) {
    std::FILE* file = std::fopen(input_path().c_str(), "wb");
    if (file == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
}

}  // namespace famspec::fuzz
