// A candidate plugin file, opened once. Its tables are read from this descriptor and its digest is
// taken from it, so the file that was checked is the file that is read; a change in between is seen
// by comparing the file's status.
#pragma once

#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>

#include "famspec/expected.hpp"

namespace famspec::detail {

// What must stay the same between reading a file and mapping it. Not ctime: renaming a new file over
// this one (the safe deploy) changes the old inode's ctime without touching a byte of it.
struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec mtime{};

    static FileIdentity of(const struct stat& status);
    bool same_file(const FileIdentity& other) const { return device == other.device && inode == other.inode; }
    friend bool operator==(const FileIdentity& a, const FileIdentity& b);
};

class PluginFile {
public:
    // Opens a regular file read-only: `name` in the directory open as `directory` (AT_FDCWD: `name`
    // is a path). A symbolic link is followed only when `follow_link`: a file that was no link when
    // it was found is refused if it has become one. The file, or why it cannot be opened.
    static Expected<PluginFile, std::string> open(int directory, const char* name, bool follow_link);

    PluginFile(PluginFile&& other) noexcept;
    PluginFile& operator=(PluginFile&& other) noexcept;
    PluginFile(const PluginFile&) = delete;
    PluginFile& operator=(const PluginFile&) = delete;
    ~PluginFile();

    int fd() const { return fd_; }
    FileIdentity identity() const { return FileIdentity::of(status_); }
    // The file's status when it was opened: its owner and mode are what stage trust checks.
    const struct stat& status() const { return status_; }
    // A path to this very file, whatever happened to the name it was opened by.
    std::string descriptor_path() const { return "/proc/self/fd/" + std::to_string(fd_); }
    // What differs now from when the file was opened; empty when nothing does.
    std::string changes_since_open() const;
    // Lower-case hex SHA-256 of the contents; empty if the file cannot be read.
    std::string sha256() const;

private:
    PluginFile(int fd, const struct stat& status) : fd_(fd), status_(status) {}
    int fd_ = -1;
    struct stat status_ {};
};

}  // namespace famspec::detail
