#include "discovery/plugin_candidates.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>
#include <system_error>

#include "discovery/plugin_refusal.hpp"

namespace famspec::detail {
namespace fs = std::filesystem;
namespace {

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

// `*.so` as std::filesystem reads an extension: "x.so", not ".so".
bool named_like_a_plugin(std::string_view name) { return name.size() > 3 && name.ends_with(".so"); }

// A searched directory, open, and its status read from that descriptor: its files are opened
// through it, and stage trust checks that status, so the directory checked is the one each file
// comes from, whatever is renamed over its path meanwhile.
struct OpenDirectory {
    int fd;
    struct stat status {};
    std::optional<Expected<std::vector<LinkHolder>, std::string>> links;  // in its path, if any
    explicit OpenDirectory(int descriptor) : fd(descriptor) {}
    OpenDirectory(const OpenDirectory&) = delete;
    OpenDirectory& operator=(const OpenDirectory&) = delete;
    ~OpenDirectory() { ::close(fd); }
};

// The *.so files of an open directory, listed with readdir: std::filesystem's iterator costs a
// first use of much more code, and a load pays that before its first plugin.
std::error_code read_plugin_names(int directory, const fs::path& shown, std::vector<fs::path>& files) {
    const int listed = ::fcntl(directory, F_DUPFD_CLOEXEC, 0);  // closedir closes it
    const std::unique_ptr<DIR, int (*)(DIR*)> listing(listed < 0 ? nullptr : ::fdopendir(listed), ::closedir);
    if (!listing) {
        const int error = errno;
        if (listed >= 0) ::close(listed);
        return {error, std::generic_category()};
    }
    for (;;) {
        errno = 0;
        const dirent* entry = ::readdir(listing.get());
        if (entry == nullptr) break;
        if (named_like_a_plugin(entry->d_name)) files.push_back(shown / entry->d_name);
    }
    return {errno, std::generic_category()};
}

// The symbolic links in a searched directory's own path: walked only when the path it was opened by
// is not its real path, which one readlink of its descriptor tells.
std::optional<Expected<std::vector<LinkHolder>, std::string>> links_in_path(const fs::path& directory, int fd) {
    std::array<char, 4096> buffer{};
    const std::string descriptor = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t size = ::readlink(descriptor.c_str(), buffer.data(), buffer.size());
    std::string_view shown = directory.native();
    while (shown.size() > 1 && shown.ends_with('/')) shown.remove_suffix(1);
    if (size > 0 && std::string_view(buffer.data(), static_cast<std::size_t>(size)) == shown) return std::nullopt;
    return link_holders(directory);
}

// One searched directory, open, and its *.so entries byte-wise by name.
struct Listing {
    std::shared_ptr<const OpenDirectory> directory;
    std::vector<fs::path> files;
};

// Why a directory that cannot be opened is refused: missing, no directory, or not readable.
PluginRecord unusable_directory(const std::string& shown, int open_error) {
    struct stat status {};
    const bool exists = ::stat(shown.c_str(), &status) == 0;
    if (!exists || !S_ISDIR(status.st_mode)) {
        const std::string why = exists ? "not a directory" : std::generic_category().message(errno);
        return refused_record(refusal(shown, PluginStage::find, "a plugin directory", why,
                                      "plugin directory does not exist or is not a directory"));
    }
    const std::string why = std::generic_category().message(open_error);
    return refused_record(
        refusal(shown, PluginStage::find, "a readable directory", why, "cannot list plugin directory: " + why));
}

// The listing of one directory; a directory that is missing, unlistable or holds no plugin is
// refused, so that a broken set-up never looks like "no families".
Listing list_directory(const fs::path& directory, std::vector<PluginRecord>& refused) {
    const std::string shown = directory.string();
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        refused.push_back(unusable_directory(shown, errno));
        return {};
    }
    auto opened = std::make_shared<OpenDirectory>(fd);
    std::error_code ec =
        ::fstat(fd, &opened->status) == 0 ? std::error_code() : std::error_code(errno, std::generic_category());
    if (!ec) opened->links = links_in_path(directory, fd);
    Listing listing{std::move(opened), {}};
    if (!ec) ec = read_plugin_names(fd, directory, listing.files);
    if (ec) {
        refused.push_back(refused_record(refusal(shown, PluginStage::find, "a readable directory", ec.message(),
                                                 "cannot list plugin directory: " + ec.message())));
        return {};
    }
    if (listing.files.empty()) {
        refused.push_back(refused_record(
            refusal(shown, PluginStage::find, "at least one plugin (*.so)", "none",
                    "plugin directory holds no plugin (*.so); build or install the plugins there, or search another "
                    "directory with --plugin-path or FAMSPEC_PLUGIN_PATH")));
    }
    // Entries of one directory share their prefix up to the name: the paths' bytes order the names.
    std::sort(listing.files.begin(), listing.files.end(),
              [](const fs::path& a, const fs::path& b) { return a.native() < b.native(); });
    return listing;
}

// A file to consider: found in a listed directory (open), or named on its own (none).
struct Found {
    fs::path path;
    std::shared_ptr<const OpenDirectory> directory;
};

// Opens one file as a candidate, or says at the find stage why it cannot be one. A file found in
// a directory is looked at and opened through that directory's descriptor, unless it is a symbolic
// link, which is followed by its path.
std::optional<Candidate> open_candidate(const Found& found, std::vector<PluginRecord>& refused) {
    const fs::path& file = found.path;
    const std::string shown = file.string();
    const int at = found.directory ? found.directory->fd : AT_FDCWD;
    const std::string name = found.directory ? file.filename().string() : shown;
    struct stat status {};
    const bool through_link = ::fstatat(at, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(status.st_mode);
    if ((through_link && ::stat(file.c_str(), &status) != 0) || status.st_mode == 0) {
        refused.push_back(refused_record(refusal(
            shown, PluginStage::find, "a plugin file", through_link ? "a symbolic link to nothing" : "no such file",
            through_link ? "plugin file is a symbolic link to nothing" : "plugin file does not exist")));
        return std::nullopt;
    }
    if (!S_ISREG(status.st_mode)) {
        const std::string kind = file_kind(status.st_mode) + (through_link ? " (through a symbolic link)" : "");
        refused.push_back(
            refused_record(refusal(shown, PluginStage::find, "a regular file", kind,
                                   "refused: named like a plugin but is " + kind + "; only regular files are loaded")));
        return std::nullopt;
    }
    Expected<PluginFile, std::string> opened =
        through_link ? PluginFile::open(AT_FDCWD, file.c_str(), true) : PluginFile::open(at, name.c_str(), false);
    if (!opened) {
        const std::string& why = opened.error();
        refused.push_back(refused_record(
            refusal(shown, PluginStage::find, "a readable regular file", why, "cannot open plugin file: " + why)));
        return std::nullopt;
    }
    ElfInfo elf = read_elf_info(opened->fd());
    return Candidate{.path = file,
                     .paths = {shown},
                     .file = std::move(*opened),
                     .elf = std::move(elf),
                     .through_link = through_link,
                     .listed_in = found.directory ? std::optional(found.directory->status) : std::nullopt,
                     .directory_links = found.directory ? found.directory->links : std::nullopt};
}

bool same_contents(const Candidate& a, const Candidate& b) {
    if (a.elf.build_id.empty() || a.elf.build_id != b.elf.build_id) return false;
    if (a.file.identity().size != b.file.identity().size || !a.elf.is_elf || !b.elf.is_elf) return false;
    if (!a.elf.tables || !b.elf.tables) return !a.elf.tables && !b.elf.tables && a.file.sha256() == b.file.sha256();
    return a.elf.tables->size == b.elf.tables->size && a.elf.tables->words == b.elf.tables->words &&
           a.file.sha256() == b.file.sha256();
}

}  // namespace

std::vector<Candidate> find_candidates(const LoadOptions& options, std::vector<PluginRecord>& refused) {
    std::vector<Found> files;
    for (const fs::path& directory : options.directories) {
        Listing here = list_directory(directory, refused);
        for (fs::path& file : here.files) files.push_back({std::move(file), here.directory});
    }
    for (const fs::path& file : options.files) files.push_back({file, nullptr});

    std::vector<Candidate> candidates;
    for (const Found& found : files) {
        const fs::path& file = found.path;
        std::optional<Candidate> candidate = open_candidate(found, refused);
        if (!candidate) continue;
        // One file reached twice, or a byte-identical copy (same build, size and tables): a copy that
        // differs in any byte it is read by is a candidate of its own, whatever its build-id says.
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) {
            return c.file.identity().same_file(candidate->file.identity()) || same_contents(c, *candidate);
        });
        if (same == candidates.end()) {
            candidates.push_back(std::move(*candidate));
        } else if (std::find(same->paths.begin(), same->paths.end(), file.string()) == same->paths.end()) {
            // The same directory may be searched twice (D and D/): list each path once.
            same->paths.push_back(file.string());
        }
    }
    return candidates;
}

PluginRecord record_of(const Candidate& candidate) {
    return PluginRecord{.path = candidate.path.string(),
                        .paths = candidate.paths,
                        .build_id = candidate.elf.build_id,
                        .manifest = {},
                        .error = {},
                        .notes = {}};
}

std::vector<PluginRecord> search_records(const LoadOptions& options) {
    std::vector<PluginRecord> records;
    for (const PluginError& error : options.search_errors) records.push_back(refused_record(error));
    return records;
}

}  // namespace famspec::detail
