// Replaces the global operator new with one that counts the calls each thread makes, for the
// executables that prove a path allocates nothing (a test) or count what it allocates (the bench).
// Include it in exactly one source file of an executable: the executable's operator new interposes
// on the core's and the plugins' too.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

namespace famspec::test {
// The operator new calls made so far on this thread.
inline thread_local std::size_t t_allocations = 0;
}  // namespace famspec::test

void* operator new(std::size_t size) {
    ++famspec::test::t_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
