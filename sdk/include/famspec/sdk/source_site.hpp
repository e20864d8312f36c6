// Where a declaration was written, so a refused declaration names its file:line.
//
// Two plain fields filled by compiler builtins that GCC and Clang both have: std::source_location
// is a pointer to a compiler-made record under GCC and missing under Clang 14 with libstdc++, so a
// type built on it would have two layouts across the plugin boundary.
#pragma once

namespace famspec::declare {

struct SourceSite {
    const char* file = "";
    unsigned line = 0;

    // As a default argument, the caller's file and line.
    static constexpr SourceSite current(const char* file = __builtin_FILE(),
                                        unsigned line = __builtin_LINE()) noexcept {
        return SourceSite{file, line};
    }
};

}  // namespace famspec::declare
