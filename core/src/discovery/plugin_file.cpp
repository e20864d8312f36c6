#include "discovery/plugin_file.hpp"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace famspec::detail {
namespace {

bool same_time(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

std::string hex(const unsigned char* bytes, std::size_t size) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < size; ++i) {
        out += kDigits[bytes[i] >> 4U];
        out += kDigits[bytes[i] & 0xFU];
    }
    return out;
}

}  // namespace

FileIdentity FileIdentity::of(const struct stat& status) {
    return {status.st_dev, status.st_ino, status.st_size, status.st_mtim};
}

bool operator==(const FileIdentity& a, const FileIdentity& b) {
    return a.same_file(b) && a.size == b.size && same_time(a.mtime, b.mtime);
}

Expected<PluginFile, std::string> PluginFile::open(int directory, const char* name, bool follow_link) {
    // O_NONBLOCK: a FIFO that appeared since the listing is refused below, not waited on.
    const int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow_link ? 0 : O_NOFOLLOW);
    const int fd = ::openat(directory, name, flags);
    if (fd < 0) {
        return unexpected(errno == ELOOP && !follow_link ? std::string("it became a symbolic link after it was found")
                                                         : std::string("cannot open: ") + std::strerror(errno));
    }
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        std::string why = S_ISREG(status.st_mode) ? std::string("cannot read its status: ") + std::strerror(errno)
                                                  : std::string("not a regular file");
        ::close(fd);
        return unexpected(std::move(why));
    }
    return PluginFile(fd, status);
}

PluginFile::PluginFile(PluginFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)), status_(other.status_) {}

PluginFile& PluginFile::operator=(PluginFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        status_ = other.status_;
    }
    return *this;
}

PluginFile::~PluginFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::string PluginFile::changes_since_open() const {
    struct stat status {};
    if (::fstat(fd_, &status) != 0) return std::string("cannot read its status: ") + std::strerror(errno);
    const FileIdentity then = identity();
    const FileIdentity now = FileIdentity::of(status);
    if (now == then) return {};
    if (now.size != then.size) {
        return "its size changed from " + std::to_string(then.size) + " to " + std::to_string(now.size) + " bytes";
    }
    return "it was modified (its mtime changed)";
}

std::string PluginFile::sha256() const {
    sha256_ctx context{};
    sha256_init(&context);
    std::array<unsigned char, 1 << 16> buffer{};
    off_t offset = 0;
    for (;;) {
        const ssize_t got = ::pread(fd_, buffer.data(), buffer.size(), offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return {};
        if (got == 0) break;
        sha256_update(&context, static_cast<std::size_t>(got), buffer.data());
        offset += got;
    }
    std::array<unsigned char, SHA256_DIGEST_SIZE> digest{};
    nettle_sha256_digest(&context, digest.size(), digest.data());
    return hex(digest.data(), digest.size());
}

}  // namespace famspec::detail
