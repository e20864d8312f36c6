# The wheel's toolchain (pyproject.toml names it): this machine's GCC 12, compiling and linking against
# Debian 11's glibc 2.31 (a sysroot made by scripts/wheel-sysroot.sh), so that a file of the wheel runs
# on any glibc from 2.28 on. cmake/FamspecWheel.cmake does the rest (the static libstdc++, the two
# glibc names libstdc++.a refers to, the check of each file). The Debian build does not use it.
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
# GCC's own library directories (/usr/lib/gcc/x86_64-linux-gnu/12/../../../x86_64-linux-gnu) lead to
# this machine's glibc: the sysroot's come first. libstdc++.a, libgcc and the crt files stay GCC 12's.
set(famspec_sysroot_link "-L${FAMSPEC_SYSROOT}/usr/lib/x86_64-linux-gnu -L${FAMSPEC_SYSROOT}/lib/x86_64-linux-gnu")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${famspec_sysroot_link}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${famspec_sysroot_link}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${famspec_sysroot_link}")
# The headers of the libraries (Boost, yaml-cpp, pybind11, nettle) are this machine's, in /usr/include,
# which CMake leaves out as the sysroot's own: searched after the sysroot's, so that glibc's headers are
# always Debian 11's.
set(CMAKE_CXX_FLAGS_INIT "-idirafter /usr/include")
# Libraries and CMake packages (Boost, yaml-cpp, pybind11, nettle) are this machine's: only the C
# library comes from the sysroot, so nothing is searched there but the sysroot itself first.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# Boost's CMake package chooses its static archives (libboost_json.a): see cmake/FamspecWheel.cmake.
set(Boost_USE_STATIC_LIBS ON)
