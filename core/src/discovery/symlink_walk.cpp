#include "discovery/symlink_walk.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <system_error>

namespace famspec::detail {
namespace fs = std::filesystem;

Expected<std::vector<LinkHolder>, std::string> link_holders(const fs::path& start) {
    constexpr int kMaxLinks = 40;  // the kernel's own limit (ELOOP)
    std::vector<LinkHolder> holders;
    std::error_code ec;
    const fs::path absolute = fs::absolute(start, ec);
    if (ec) return unexpected(ec.message());
    std::vector<std::string> pending;  // components still to walk, the next one last
    const auto push_components = [&pending](const fs::path& path) {
        std::vector<std::string> parts;
        for (const fs::path& part : path.relative_path()) parts.push_back(part.string());
        pending.insert(pending.end(), parts.rbegin(), parts.rend());
    };
    push_components(absolute);
    fs::path resolved = "/";
    int links = 0;
    while (!pending.empty()) {
        const std::string name = std::move(pending.back());
        pending.pop_back();
        if (name.empty() || name == ".") continue;
        if (name == "..") {
            resolved = resolved.parent_path();  // `resolved` holds no link: its parent is lexical
            continue;
        }
        fs::path next = resolved / name;
        struct stat status {};
        if (::lstat(next.c_str(), &status) != 0)
            return unexpected(next.string() + ": " + std::generic_category().message(errno));
        if (!S_ISLNK(status.st_mode)) {
            resolved = std::move(next);
            continue;
        }
        if (++links > kMaxLinks) return unexpected(std::string("more than 40 symbolic links"));
        const fs::path target = fs::read_symlink(next, ec);
        if (ec) return unexpected(next.string() + ": " + ec.message());
        holders.push_back({resolved, next});
        if (target.is_absolute()) resolved = "/";
        push_components(target);
    }
    return holders;
}

}  // namespace famspec::detail
