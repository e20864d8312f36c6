// Stage find: every *.so in the searched directories and every explicit file, in search order
// (path order, then byte-wise file name), opened once, one candidate per distinct file.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "discovery/plugin_file.hpp"
#include "discovery/symlink_walk.hpp"
#include "famspec/elf_file.hpp"
#include "famspec/plugin_record.hpp"

namespace famspec::detail {

struct Candidate {
    std::filesystem::path path;      // the first path that reached the file
    std::vector<std::string> paths;  // every path that did (symlink, hardlink, byte-identical copy)
    PluginFile file;
    ElfInfo elf;  // read from `file`
    // `path` is a symbolic link: stage trust then checks the directory the file really is in, too.
    bool through_link = false;
    // The status of the searched directory `path` was listed in, taken when it was listed; none for
    // an explicit file. Stage trust checks it, so a hundred plugins of one directory cost one stat.
    std::optional<struct stat> listed_in;
    // The symbolic links in the path of the searched directory `path` was listed in, when that path
    // is not the directory's real path (found by one readlink per directory); stage trust checks
    // the directories that hold them.
    std::optional<Expected<std::vector<LinkHolder>, std::string>> directory_links;
};

// The candidates; what cannot be one (a missing, empty or unlistable directory, a special file named
// *.so, a file that cannot be opened) is appended to `refused` at the find stage.
std::vector<Candidate> find_candidates(const LoadOptions& options, std::vector<PluginRecord>& refused);

PluginRecord record_of(const Candidate& candidate);

// The records of the search path's own errors (LoadOptions::search_errors), first in every report.
std::vector<PluginRecord> search_records(const LoadOptions& options);

}  // namespace famspec::detail
