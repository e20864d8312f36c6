#include "discovery/plugin_trust.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "discovery/plugin_refusal.hpp"
#include "discovery/symlink_walk.hpp"
#include "famspec/expected.hpp"
#include "famspec/search_path.hpp"

namespace famspec::detail {
namespace fs = std::filesystem;
namespace {

std::string octal_mode(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777U));
    return text;
}

std::string user_name(uid_t uid) {
    const passwd* entry = ::getpwuid(uid);  // NOLINT(concurrency-mt-unsafe): under the loader lock
    return "uid " + std::to_string(uid) + (entry != nullptr ? " (" + std::string(entry->pw_name) + ")" : "");
}

bool foreign_owner(const struct stat& status, uid_t me) { return status.st_uid != 0 && status.st_uid != me; }
bool shared_write(const struct stat& status) { return (status.st_mode & (S_IWGRP | S_IWOTH)) != 0; }

// Why `what` (a file or its directory) is not safe to load a plugin from; empty when it is.
std::string insecurity(const std::string& what, const fs::path& path, const struct stat& status, uid_t me) {
    if (foreign_owner(status, me)) {
        return what + " " + path.string() + " is owned by " + user_name(status.st_uid) +
               ", neither root nor the current user (" + user_name(me) + "); fix: chown root " + path.string();
    }
    if (shared_write(status)) {
        const char* who = (status.st_mode & S_IWGRP) != 0 && (status.st_mode & S_IWOTH) != 0 ? "group and others"
                          : (status.st_mode & S_IWGRP) != 0                                  ? "its group"
                                                                                             : "others";
        return what + " " + path.string() + " is writable by " + who + " (mode " + octal_mode(status.st_mode) +
               "); fix: chmod go-w " + path.string();
    }
    return {};
}

// Where the opened file really is, from its descriptor: one readlink, and it names the file that was
// opened even if the path has changed since. Resolved from the path when /proc cannot say.
fs::path real_path(const Candidate& candidate) {
    std::array<char, 4096> buffer{};
    const ssize_t size = ::readlink(candidate.file.descriptor_path().c_str(), buffer.data(), buffer.size());
    const std::string_view link(buffer.data(), size > 0 ? static_cast<std::size_t>(size) : 0);
    if (link.starts_with('/') && !link.ends_with(" (deleted)") && link.size() < buffer.size()) return fs::path(link);
    std::error_code ec;
    const fs::path real = fs::canonical(candidate.path, ec);
    return ec ? fs::path() : real;
}

// Checks each directory once, by its identity: the one a file was found in, every one that holds a
// link on the way (named with the link it holds, unless that is the file itself), the one it really
// is in. A way that could not be walked is an insecurity too: the links on it are not known.
void check_directories(const Candidate& candidate, const std::vector<LinkHolder>& directories,
                       const std::string& unwalked, uid_t me, std::vector<std::string>& found) {
    if (!unwalked.empty()) found.push_back("the symbolic links on the way to it cannot be followed (" + unwalked + ")");
    std::vector<FileIdentity> checked;
    struct stat status {};
    for (const auto& [directory, link] : directories) {
        if (directory.empty() || ::stat(directory.c_str(), &status) != 0) continue;
        const FileIdentity identity = FileIdentity::of(status);
        if (std::any_of(checked.begin(), checked.end(), [&](const FileIdentity& c) { return c.same_file(identity); }))
            continue;
        checked.push_back(identity);
        std::string why = insecurity("directory", directory, status, me);
        if (why.empty()) continue;
        if (!link.empty() && link != candidate.path) {
            why += " (it holds the symbolic link " + link.string() + " on the way to the plugin)";
        }
        found.push_back(why);
    }
}

// The file itself (its status when it was opened) and every directory that holds it: where it was
// found, where it really is, and, when it was reached through symbolic links (its own, or those in
// the path of the directory searched), every directory that holds one of them. Directories above
// those are not checked.
std::vector<std::string> insecurities(const Candidate& candidate) {
    std::vector<std::string> found;
    const uid_t me = ::geteuid();
    if (std::string why = insecurity("file", candidate.path, candidate.file.status(), me); !why.empty()) {
        found.push_back(why);
    }
    // The directory the file was found in, as a path: made only when it must be named or stat'ed.
    const auto holder_path = [&candidate] {
        std::error_code ec;
        return fs::absolute(candidate.path, ec).parent_path();
    };
    // A file that is no symbolic link (it was opened with O_NOFOLLOW) is in the directory it was
    // found in: that directory is checked once, by the status taken when it was listed, and so are
    // the directories that hold links in the searched directory's path, when it has any.
    struct stat status {};
    if (!candidate.through_link) {
        if (candidate.listed_in) {
            status = *candidate.listed_in;
        } else if (::stat(holder_path().c_str(), &status) != 0) {
            return found;
        }
        if (foreign_owner(status, me) || shared_write(status)) {
            found.push_back(insecurity("directory", holder_path(), status, me));
        }
        if (const auto& way = candidate.directory_links) {
            check_directories(candidate, way->has_value() ? **way : std::vector<LinkHolder>{},
                              way->has_value() ? std::string() : way->error(), me, found);
        }
        return found;
    }
    std::vector<LinkHolder> directories{{holder_path(), {}}};
    auto holders = link_holders(candidate.path);
    if (holders) {
        for (LinkHolder& holder : *holders) directories.push_back(std::move(holder));
    }
    directories.push_back({real_path(candidate).parent_path(), {}});
    check_directories(candidate, directories, holders ? std::string() : holders.error(), me, found);
    return found;
}

std::optional<PluginError> check_ownership(const Candidate& candidate, const LoadOptions& options) {
    const std::vector<std::string> found = insecurities(candidate);
    if (found.empty()) return std::nullopt;
    const std::string path = candidate.path.string();
    if (options.allow_insecure) {
        if (options.log) {
            options.log(LogLevel::warning, path + ": loaded although insecure (--allow-insecure-plugins or " +
                                               kAllowInsecureVariable + "=1): " + joined(found));
        }
        return std::nullopt;
    }
    return refusal(path, PluginStage::trust, "a file and directory only root or the current user can change",
                   joined(found),
                   "refused: " + joined(found) + "; or load it anyway with --allow-insecure-plugins (" +
                       kAllowInsecureVariable + "=1)");
}

std::optional<PluginError> check_digest(const Candidate& candidate, const std::vector<RequiredDigest>& required) {
    const std::string path = candidate.path.string();
    const std::string digest = candidate.file.sha256();
    if (digest.empty()) {
        return refusal(path, PluginStage::trust, "a readable file", "a read error",
                       "refused: its SHA-256 cannot be computed (read error)");
    }
    if (std::any_of(required.begin(), required.end(), [&](const RequiredDigest& d) { return d.sha256 == digest; })) {
        return std::nullopt;
    }
    if (required.empty()) {
        return refusal(path, PluginStage::trust, "a SHA-256 listed in the required digests", digest,
                       "refused: the required digests pin no plugin (the list is empty or could not be used), "
                       "so no plugin loads; list this plugin's SHA-256 " +
                           digest + " to load it");
    }
    const std::string file_name = candidate.path.filename().string();
    const auto named = std::find_if(required.begin(), required.end(), [&](const RequiredDigest& d) {
        return d.name == file_name || "famspec_" + d.name + ".so" == file_name;
    });
    const std::string pinned = named != required.end() ? "; the list pins '" + named->name + "' to " + named->sha256
                                                       : "; the list names no such plugin";
    return refusal(path, PluginStage::trust, "a SHA-256 listed in the required digests", digest,
                   "refused: its SHA-256 " + digest + " is not among the required digests" + pinned +
                       "; deploy the pinned build, or update the digest list if this one is intended");
}

}  // namespace

std::optional<PluginError> check_trust(const Candidate& candidate, const LoadOptions& options) {
    if (auto error = check_ownership(candidate, options)) return error;
    if (options.required_digests) return check_digest(candidate, *options.required_digests);
    return std::nullopt;
}

}  // namespace famspec::detail
