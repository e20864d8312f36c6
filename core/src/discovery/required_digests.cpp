// The digest lists `--require-digests` and FAMSPEC_REQUIRE_DIGESTS name: a snapshot's JSON or
// sha256sum's "digest name" lines.
#include "famspec/required_digests.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <boost/json/parse.hpp>
#include <cctype>
#include <cerrno>
#include <sstream>
#include <system_error>

namespace famspec {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxDigestFileBytes = std::size_t{4} << 20;

// Lower-case hex of a "sha256:"-prefixed or bare SHA-256; empty when it is not one.
std::string normalized_digest(std::string_view text) {
    if (text.starts_with("sha256:")) text.remove_prefix(7);
    if (text.size() != 64) return {};
    std::string out;
    for (const char c : text) {
        if (std::isxdigit(static_cast<unsigned char>(c)) == 0) return {};
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

RequiredDigests failure(const fs::path& file, std::size_t line, const std::string& what) {
    return unexpected(file.string() + (line > 0 ? ":" + std::to_string(line) : "") + ": " + what);
}

RequiredDigests from_json(const fs::path& file, const std::string& text) {
    boost::system::error_code ec;
    const boost::json::value root = boost::json::parse(text, ec);
    const auto* object = !ec ? root.if_object() : nullptr;
    const auto* plugins = object != nullptr && object->contains("plugins") ? object->at("plugins").if_array() : nullptr;
    if (plugins == nullptr) return failure(file, 0, "expected a JSON object with a \"plugins\" array");
    std::vector<RequiredDigest> digests;
    for (std::size_t i = 0; i < plugins->size(); ++i) {
        const auto* entry = (*plugins)[i].if_object();
        const auto* name = entry != nullptr && entry->contains("name") ? entry->at("name").if_string() : nullptr;
        const auto* sha = entry != nullptr && entry->contains("sha256") ? entry->at("sha256").if_string() : nullptr;
        const std::string digest = sha != nullptr ? normalized_digest(*sha) : std::string();
        if (name == nullptr || digest.empty()) {
            return failure(
                file, 0, "plugins[" + std::to_string(i) + "]: expected {\"name\": string, \"sha256\": 64 hex digits}");
        }
        digests.push_back({std::string(*name), digest});
    }
    return digests;
}

RequiredDigests from_lines(const fs::path& file, const std::string& text) {
    std::vector<RequiredDigest> digests;
    std::istringstream in(text);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        std::istringstream fields(line);
        std::string digest;
        std::string name;
        if (!(fields >> digest) || digest.starts_with('#')) continue;
        fields >> std::ws;
        std::getline(fields, name);
        if (name.starts_with('*')) name.erase(0, 1);  // sha256sum's binary-mode marker
        const std::string normalized = normalized_digest(digest);
        if (normalized.empty() || name.empty()) return failure(file, number, "expected '<sha256> <name>'");
        digests.push_back({fs::path(name).filename().string(), normalized});
    }
    return digests;
}

}  // namespace

RequiredDigests read_required_digests(const fs::path& file) {
    if (file.empty()) return unexpected(std::string("an empty file name names no digest list"));
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failure(file, 0, "cannot be read: " + std::generic_category().message(errno));
    struct stat status {};
    if (::fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) {
        ::close(fd);
        return failure(file, 0, "is a directory, not a digest list");
    }
    std::string text;
    std::array<char, 65536> chunk{};
    int error = 0;
    while (text.size() <= kMaxDigestFileBytes) {
        const ssize_t n = ::read(fd, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = errno;
        if (n <= 0) break;
        text.append(chunk.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (error != 0) return failure(file, 0, "cannot be read: " + std::generic_category().message(error));
    if (text.size() > kMaxDigestFileBytes) return failure(file, 0, "larger than 4 MiB");
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') return from_json(file, text);
    return from_lines(file, text);
}

}  // namespace famspec
