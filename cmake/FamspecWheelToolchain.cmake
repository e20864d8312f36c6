# The wheel's toolchain (pyproject.toml names it): this machine's GCC 12, compiling and linking against
# Debian 11's glibc 2.31 (a sysroot made by scripts/wheel-sysroot.sh), so that a file of the wheel runs
# on any glibc from 2.28 on. cmake/FamspecWheel.cmake does the rest (the search paths, the static
# libstdc++, the glibc names newer than 2.28, the check of each file), where a kept build directory
# sees a change at its next configuration. The Debian build does not use it.
if(DEFINED ENV{FAMSPEC_SYSROOT})
    set(FAMSPEC_SYSROOT "$ENV{FAMSPEC_SYSROOT}")
else()
    set(FAMSPEC_SYSROOT /var/cache/famspec/sysroot-bullseye)
endif()
if(NOT EXISTS "${FAMSPEC_SYSROOT}/.famspec-sysroot")
    message(FATAL_ERROR "famspec wheel: no glibc sysroot at ${FAMSPEC_SYSROOT}: as root, `bash scripts/wheel-sysroot.sh` "
        "makes it (scripts/install-deps.sh runs it); FAMSPEC_SYSROOT names another directory")
endif()
set(CMAKE_SYSROOT "${FAMSPEC_SYSROOT}")
# Libraries and CMake packages (Boost, yaml-cpp, pybind11, nettle) are this machine's: only the C
# library comes from the sysroot, so nothing is searched there but the sysroot itself first.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# Boost's CMake package chooses its static archives (libboost_json.a): see cmake/FamspecWheel.cmake.
set(Boost_USE_STATIC_LIBS ON)
