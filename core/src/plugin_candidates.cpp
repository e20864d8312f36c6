#include "plugin_candidates.hpp"

#include <sys/stat.h>

#include <algorithm>

#include "plugin_refusal.hpp"

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

// The *.so entries of one directory, byte-wise by name; a directory that is missing, unlistable or
// holds no plugin is refused, so that a broken set-up never looks like "no families".
std::vector<fs::path> list_directory(const fs::path& directory, std::vector<PluginRecord>& refused) {
    const std::string shown = directory.string();
    std::error_code ec;
    if (!fs::is_directory(directory, ec)) {
        refused.push_back(refused_record(refusal(shown, PluginStage::find, "a plugin directory",
                                                 ec ? ec.message() : "not a directory",
                                                 "plugin directory does not exist or is not a directory")));
        return {};
    }
    std::vector<fs::path> here;
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".so") here.push_back(it->path());
    }
    if (ec) {
        refused.push_back(refused_record(refusal(shown, PluginStage::find, "a readable directory", ec.message(),
                                                 "cannot list plugin directory: " + ec.message())));
        return {};
    }
    if (here.empty()) {
        refused.push_back(refused_record(
            refusal(shown, PluginStage::find, "at least one plugin (*.so)", "none",
                    "plugin directory holds no plugin (*.so); build or install the plugins there, or search another "
                    "directory with --plugin-path or FAMSPEC_PLUGIN_PATH")));
    }
    // Entries of one directory share their prefix up to the name: the paths' bytes order the names.
    std::sort(here.begin(), here.end(), [](const fs::path& a, const fs::path& b) { return a.native() < b.native(); });
    return here;
}

// Opens one file as a candidate, or says at the find stage why it cannot be one.
std::optional<Candidate> open_candidate(const fs::path& file, std::vector<PluginRecord>& refused) {
    const std::string shown = file.string();
    struct stat status {};
    struct stat link {};
    if (::stat(file.c_str(), &status) != 0) {
        const bool dangling = ::lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
        refused.push_back(refused_record(
            refusal(shown, PluginStage::find, "a plugin file", dangling ? "a symbolic link to nothing" : "no such file",
                    dangling ? "plugin file is a symbolic link to nothing" : "plugin file does not exist")));
        return std::nullopt;
    }
    if (!S_ISREG(status.st_mode)) {
        const bool through_link = ::lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
        const std::string kind = file_kind(status.st_mode) + (through_link ? " (through a symbolic link)" : "");
        refused.push_back(
            refused_record(refusal(shown, PluginStage::find, "a regular file", kind,
                                   "refused: named like a plugin but is " + kind + "; only regular files are loaded")));
        return std::nullopt;
    }
    std::string why;
    std::optional<PluginFile> opened = PluginFile::open(file, why);
    if (!opened) {
        refused.push_back(refused_record(
            refusal(shown, PluginStage::find, "a readable regular file", why, "cannot open plugin file: " + why)));
        return std::nullopt;
    }
    ElfInfo elf = read_elf_info(opened->fd());
    return Candidate{.path = file, .paths = {shown}, .file = std::move(*opened), .elf = std::move(elf)};
}

}  // namespace

std::vector<Candidate> find_candidates(const LoadOptions& options, std::vector<PluginRecord>& refused) {
    std::vector<fs::path> files;
    for (const fs::path& directory : options.directories) {
        const std::vector<fs::path> here = list_directory(directory, refused);
        files.insert(files.end(), here.begin(), here.end());
    }
    files.insert(files.end(), options.files.begin(), options.files.end());

    std::vector<Candidate> candidates;
    for (const fs::path& file : files) {
        std::optional<Candidate> candidate = open_candidate(file, refused);
        if (!candidate) continue;
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) {
            const bool same_build = !candidate->elf.build_id.empty() && c.elf.build_id == candidate->elf.build_id;
            return c.file.identity().same_file(candidate->file.identity()) || same_build;
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
                        .error = {}};
}

std::vector<PluginRecord> search_records(const LoadOptions& options) {
    std::vector<PluginRecord> records;
    for (const PluginError& error : options.search_errors) records.push_back(refused_record(error));
    return records;
}

}  // namespace famspec::detail
