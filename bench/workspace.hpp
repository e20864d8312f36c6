// What the benchmark measures on: directories holding the first N generated plugins, generated plans
// of a given size, and the machine it runs on.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace famspec::bench {

class Workspace {
public:
    // The generated plugins are taken in byte-wise file name order.
    Workspace(const std::filesystem::path& generated_dir, const std::vector<int>& counts,
              const std::vector<int>& plan_entries);
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    ~Workspace();

    std::size_t available() const { return generated_.size(); }
    // A directory with symbolic links to the first `count` generated plugins, and those links.
    const std::filesystem::path& plugin_dir(int count) const { return plugin_dirs_.at(count); }
    std::vector<std::string> plugin_files(int count) const;
    const std::filesystem::path& plan(int entries) const { return plans_.at(entries); }

private:
    std::filesystem::path root_;
    std::vector<std::filesystem::path> generated_;
    std::map<int, std::filesystem::path> plugin_dirs_;
    std::map<int, std::filesystem::path> plans_;
};

// A plan of `entries` plan_overrides for the qwen3_moe family, every entry distinct.
void write_plan(const std::filesystem::path& file, int entries);

// "AMD EPYC ..., 2 CPUs".
std::string machine_description();

// Pins this process (and so every process it starts) to its last allowed CPU; -1 when not possible.
int pin_to_one_cpu();

}  // namespace famspec::bench
