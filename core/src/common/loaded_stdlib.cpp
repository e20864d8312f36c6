#include "common/loaded_stdlib.hpp"

#include <dlfcn.h>
#include <link.h>

#include <array>
#include <utility>

namespace famspec::detail {
namespace {

// From libstdc++'s ABI policy: the GLIBCXX_3.4.N that each GCC release introduced.
constexpr std::array<std::pair<int, int>, 11> kFirstVersion{
    {{5, 21}, {6, 22}, {7, 23}, {8, 25}, {9, 26}, {10, 28}, {11, 29}, {12, 30}, {13, 31}, {14, 33}, {15, 34}}};

}  // namespace

std::string libstdcxx_first_version(int release) {
    int minor = kFirstVersion.front().second;
    for (const auto& [gcc, first] : kFirstVersion) {
        if (gcc <= release) minor = first;
    }
    if (release > kFirstVersion.back().first)
        minor = kFirstVersion.back().second + (release - kFirstVersion.back().first);
    return "GLIBCXX_3.4." + std::to_string(minor);
}

LoadedStdlib loaded_libstdcxx(int release) {
    // RTLD_NOLOAD: only the copy already in the process answers; the reference it takes is the
    // process's own, so it is given back.
    void* handle = ::dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) return {{}, false};
    LoadedStdlib loaded{{}, false};
    link_map* map = nullptr;
    if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr) {
        loaded.path = map->l_name;
    }
    // Each version node is also an absolute symbol of the same name, whose value is 0: only
    // dlerror tells a defined one from a missing one.
    const std::string version = libstdcxx_first_version(release);
    (void)::dlerror();
    (void)::dlvsym(handle, version.c_str(), version.c_str());
    loaded.provides = ::dlerror() == nullptr;
    ::dlclose(handle);
    return loaded;
}

}  // namespace famspec::detail
