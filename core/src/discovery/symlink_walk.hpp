// Symbolic links on the way to a plugin: whoever can write to a directory that holds one can
// repoint it, so stage trust checks each such directory as it checks the plugin's own.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "famspec/expected.hpp"

namespace famspec::detail {

// A directory that holds a symbolic link met on the way to a plugin, and that link.
struct LinkHolder {
    std::filesystem::path directory;
    std::filesystem::path link;
};

// Every directory that holds a symbolic link on the way from `start` to what it names, in the order
// met: the path is resolved one component at a time, as the kernel does, so a link to a link and a
// link among the directories of a link's target are all found. A way that cannot be walked is an
// error (it was walked to open the file, so it changed since): the links on it are not known.
Expected<std::vector<LinkHolder>, std::string> link_holders(const std::filesystem::path& start);

}  // namespace famspec::detail
