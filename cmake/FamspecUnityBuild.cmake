# Build time: the targets of many sources (the core, the command, the binding, the larger test
# executables) are compiled as a few batches of sources each (CMake's unity build), so that the
# heavy headers they share (CLI11, Boost.JSON, yaml-cpp, Boost.DLL, pybind11, doctest) are parsed, and
# their inline code generated, once per batch instead of once per file. A full build takes about half
# the compiler time; each test still runs in every build it ran in. -DFAMSPEC_UNITY_BUILD=OFF compiles
# file by file (each source then shows on its own that it includes what it uses).
option(FAMSPEC_UNITY_BUILD "Compile the targets of many sources in batches (a faster full build)" ON)

# famspec_unity_build(<target> [BATCH_SIZE n]): target's sources in batches of n (8 by default); a
# source that cannot share a translation unit says so with SKIP_UNITY_BUILD_INCLUSION, and why.
function(famspec_unity_build target)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "BATCH_SIZE" "")
    if(NOT FAMSPEC_UNITY_BUILD)
        return()
    endif()
    if(NOT arg_BATCH_SIZE)
        set(arg_BATCH_SIZE 8)
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${arg_BATCH_SIZE})
endfunction()
