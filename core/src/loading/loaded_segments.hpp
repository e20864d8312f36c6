// Where the loaded objects lie in memory, and which of their segments are mapped without write
// access: what proves that a plugin's tables are its own constant data. Taken once, after every
// plugin of a load is open, so that reading N plugins walks the loaded objects once, not N times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace famspec::detail {

class LoadedSegments {
public:
    static LoadedSegments now();

    // Whether [at, at + size) lies in a read-only segment of the object that holds `owner`.
    bool read_only_of(const void* owner, const void* at, std::size_t size) const;

private:
    struct Span {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        bool holds(std::uintptr_t at, std::size_t size) const { return at >= begin && at <= end && size <= end - at; }
    };
    struct Object {
        std::vector<Span> segments;
        std::vector<Span> read_only;
    };
    std::vector<Object> objects_;
};

}  // namespace famspec::detail
