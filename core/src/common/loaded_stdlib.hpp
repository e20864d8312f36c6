// Which libstdc++ this process has loaded, asked without reading a file: a plugin built against a
// newer one than that needs symbols the dynamic linker will not find.
#pragma once

#include <string>

namespace famspec::detail {

// The symbol version a libstdc++ of GCC `release` defines first ("GLIBCXX_3.4.30" for 12). A
// release newer than the table is given one version more per release, the fewest it can have.
std::string libstdcxx_first_version(int release);

struct LoadedStdlib {
    std::string path;  // empty when no libstdc++ is loaded
    bool provides;     // it defines the version asked for
};

// Whether the libstdc++ in this process defines libstdcxx_first_version(release).
LoadedStdlib loaded_libstdcxx(int release);

}  // namespace famspec::detail
