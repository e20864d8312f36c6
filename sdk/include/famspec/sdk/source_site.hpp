// Where a declaration was written, so a refused declaration names its file:line.
#pragma once

#include <version>

#if defined(__cpp_lib_source_location)
#include <source_location>
#endif

namespace famspec::declare {

#if defined(__cpp_lib_source_location)
using SourceSite = std::source_location;
#else
// clang 14 with libstdc++ has no std::source_location (it lacks __builtin_source_location); the
// builtins it does have give the same file and line when used as default arguments.
class SourceSite {
public:
    static constexpr SourceSite current(const char* file = __builtin_FILE(),
                                        unsigned line = __builtin_LINE()) noexcept {
        SourceSite site;
        site.file_ = file;
        site.line_ = line;
        return site;
    }
    constexpr const char* file_name() const noexcept { return file_; }
    constexpr unsigned line() const noexcept { return line_; }

private:
    const char* file_ = "";
    unsigned line_ = 0;
};
#endif

}  // namespace famspec::declare
