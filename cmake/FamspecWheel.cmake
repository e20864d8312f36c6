# The build a wheel comes from (FAMSPEC_WHEEL, set by pyproject.toml through scikit-build-core, with
# the toolchain cmake/FamspecWheelToolchain.cmake). The same sources as the Debian build, with what
# makes the wheel install and run on any x86-64 Linux with glibc 2.28 or newer (manylinux_2_28):
#
# - glibc: everything is compiled and linked against Debian 11's glibc 2.31 (the toolchain's sysroot,
#   made by scripts/wheel-sysroot.sh), and each file's GLIBC_ symbol versions are checked against 2.28
#   when the wheel's files are installed: the build fails naming the file, the symbol and its version.
# - libstdc++: GCC 12's, linked statically into each file (-static-libstdc++) and hidden there
#   (--exclude-libs, the core's and the plugins' version scripts), so that no file needs a
#   libstdc++.so.6 newer than the host's; libgcc_s.so.1 stays shared, the one unwinder of the process
#   (exceptions cross from the core to the extension).
# - What is newer than glibc 2.28 (the two names libstdc++.a refers to, and the sources' few calls of
#   glibc 2.29 to 2.32 functions) is defined in each file (famspec_wheel_glibc.cpp, declared by
#   famspec_wheel_glibc.h, included first in every source).
# - The dependencies: Debian 12's static archives of yaml-cpp, Boost.JSON and nettle, linked into the
#   core library and the command, their symbols hidden. From outside the wheel its files need only
#   glibc's libraries and libgcc_s.so.1.
# - No build machine's path: a declaration's SourceSite (__builtin_FILE) names its file relative to
#   the source tree, as `famspec audit` and refusals print it.
if(NOT FAMSPEC_PYTHON)
    message(FATAL_ERROR "FAMSPEC_WHEEL needs FAMSPEC_PYTHON: the wheel is the Python package")
endif()
if(NOT CMAKE_SYSROOT)
    message(FATAL_ERROR "FAMSPEC_WHEEL needs the wheel's toolchain: "
        "-DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/FamspecWheelToolchain.cmake (pyproject.toml sets it)")
endif()
# GCC's own search paths (/usr/lib/gcc/x86_64-linux-gnu/12/../../../x86_64-linux-gnu) lead to this
# machine's glibc: the sysroot's come first, for the libraries (-L) and for glibc's start files (-B:
# Debian 12's Scrt1.o leaves static constructors to glibc 2.34's __libc_start_main, so that with
# glibc 2.31 a program would start with none run). libstdc++.a, libgcc and crtbegin stay GCC 12's.
add_link_options(-B${CMAKE_SYSROOT}/usr/lib/x86_64-linux-gnu -L${CMAKE_SYSROOT}/usr/lib/x86_64-linux-gnu
    -L${CMAKE_SYSROOT}/lib/x86_64-linux-gnu)
# The headers of the libraries (Boost, yaml-cpp, pybind11, nettle) are this machine's, in /usr/include,
# which CMake leaves out as the sysroot's own: searched after the sysroot's, so that glibc's headers are
# always Debian 11's.
add_compile_options(-idirafter /usr/include)
add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/= -include ${CMAKE_CURRENT_LIST_DIR}/famspec_wheel_glibc.h)
# glibc 2.31 keeps threads and dlopen in libpthread.so.0 and libdl.so.2, which libstdc++.a and the
# definitions below need in every file (-ldl at the end of each link line).
add_link_options(-static-libstdc++ -shared-libgcc -Wl,--exclude-libs,ALL -pthread)
string(APPEND CMAKE_CXX_STANDARD_LIBRARIES " -ldl")

# Every file links the definitions: an object compiled here, on every link line (an object file is
# always linked, wherever it stands; an archive would come before libstdc++.a, which refers to them).
set(famspec_wheel_glibc ${CMAKE_BINARY_DIR}/famspec_wheel_glibc.o)
execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} --sysroot=${CMAKE_SYSROOT} -std=c++20 -O2 -fPIC -fvisibility=hidden -c
        ${CMAKE_CURRENT_LIST_DIR}/famspec_wheel_glibc.cpp -o ${famspec_wheel_glibc}
    COMMAND_ERROR_IS_FATAL ANY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/famspec_wheel_glibc.cpp)
add_link_options(${famspec_wheel_glibc})

# yaml-cpp's CMake package names its shared library only: the wheel links its archive instead (Boost's
# are chosen by Boost_USE_STATIC_LIBS, in the toolchain). Debian builds the archive position-independent
# as an executable's (PIE), which links into a shared library whose version script keeps its symbols local.
find_library(FAMSPEC_STATIC_yaml-cpp NAMES libyaml-cpp.a REQUIRED)
set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION_NONE "${FAMSPEC_STATIC_yaml-cpp}")
set_property(TARGET yaml-cpp PROPERTY IMPORTED_SONAME_NONE)

# Once every target is defined (the top-level CMakeLists.txt calls it last).
function(famspec_wheel_finish)
    # The famspec command links libgcc statically (cli/CMakeLists.txt), but GCC 12's static unwinder
    # needs glibc 2.35 (_dl_find_object): in the wheel it takes libgcc_s.so.1 as every other file does.
    get_target_property(options famspec LINK_OPTIONS)
    list(REMOVE_ITEM options -static-libgcc)
    set_target_properties(famspec PROPERTIES LINK_OPTIONS "${options}")
    # After everything is installed: each ELF file of the package (the install prefix's parent, where
    # the extension is) checked against manylinux_2_28 by the script that tags the wheel.
    install(CODE "set(FAMSPEC_WHEEL_CHECK \"${Python3_EXECUTABLE};${PROJECT_SOURCE_DIR}/python/packaging/manylinux_tag.py\")")
    install(CODE [[
# The development link: the CMake package names libfamspec.so.0 itself, and a wheel holds no symbolic link.
file(REMOVE "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/lib/libfamspec.so")
message(STATUS "Checking the wheel's files against manylinux_2_28")
execute_process(
    COMMAND ${FAMSPEC_WHEEL_CHECK} --check "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/.."
    RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "famspec wheel: a file needs more than manylinux_2_28 allows (above)")
endif()
]])
endfunction()
