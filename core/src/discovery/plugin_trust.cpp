#include "discovery/plugin_trust.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "discovery/plugin_refusal.hpp"
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

// The file itself (its status when it was opened) and every directory that holds it: where it was
// found and, for a symbolic link, where it really is. Directories above those are not checked.
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
    // found in: that directory is checked once, by the status taken when it was listed.
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
        return found;
    }
    const fs::path holder = holder_path();
    const fs::path real = real_path(candidate).parent_path();
    // One directory reached two ways is checked once: by its path when both name it alike, else by
    // its identity.
    std::optional<FileIdentity> checked;
    for (const fs::path* directory : {&holder, &real}) {
        if (directory == &real && real.native() == holder.native()) break;
        if (directory->empty() || ::stat(directory->c_str(), &status) != 0) continue;
        const FileIdentity identity = FileIdentity::of(status);
        if (checked && checked->same_file(identity)) continue;
        checked = identity;
        if (std::string why = insecurity("directory", *directory, status, me); !why.empty()) found.push_back(why);
    }
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
