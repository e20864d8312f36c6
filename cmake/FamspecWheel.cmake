# The build a wheel comes from (FAMSPEC_WHEEL, set by pyproject.toml through scikit-build-core).
# The same sources as the Debian build, with two differences that make the wheel installable on
# any current Linux:
#
# - No build machine's path: a declaration's SourceSite (__builtin_FILE) names its file relative to
#   the source tree, as `famspec audit` and refusals print it.
# - From outside the wheel, its files need only glibc, libstdc++.so.6 and libgcc_s.so.1. The famspec
#   command links the dependencies' archives already (core/CMakeLists.txt);
#   libfamspec.so links nettle's archive, the only one of them that is position-independent, and
#   finds the others (yaml-cpp and Boost.JSON), copied next to it, through $ORIGIN.
#   The plugins and the extension need nothing but libfamspec.so.0.
if(NOT FAMSPEC_PYTHON)
    message(FATAL_ERROR "FAMSPEC_WHEEL needs FAMSPEC_PYTHON: the wheel is the Python package")
endif()
add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/=)
find_program(FAMSPEC_PATCHELF patchelf REQUIRED)

# After the core is installed: its libraries outside the allowed set, copied into the prefix's lib/
# under the name the dynamic linker looks for (the SONAME), each finding the others through $ORIGIN.
function(famspec_wheel_carry_dependencies)
    install(CODE "set(FAMSPEC_PATCHELF \"${FAMSPEC_PATCHELF}\")")
    install(CODE [[
set(library_dir "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/lib")
# The development link: the CMake package names libfamspec.so.0 itself.
file(REMOVE "${library_dir}/libfamspec.so")
file(GET_RUNTIME_DEPENDENCIES
    LIBRARIES "${library_dir}/libfamspec.so.0"
    RESOLVED_DEPENDENCIES_VAR carried
    UNRESOLVED_DEPENDENCIES_VAR unresolved
    PRE_EXCLUDE_REGEXES "^(libc|libm|libdl|librt|libpthread|libstdc\\+\\+|libgcc_s|ld-linux-x86-64)\\.so")
if(unresolved)
    message(FATAL_ERROR "famspec wheel: libfamspec.so.0 needs ${unresolved}, which was not found")
endif()
foreach(dependency IN LISTS carried)
    get_filename_component(name "${dependency}" NAME)
    if(dependency STREQUAL "${library_dir}/${name}")
        continue()
    endif()
    file(REAL_PATH "${dependency}" real)
    message(STATUS "Carrying ${real} as lib/${name}")
    file(COPY_FILE "${real}" "${library_dir}/${name}")
    execute_process(COMMAND "${FAMSPEC_PATCHELF}" --set-rpath "$ORIGIN" "${library_dir}/${name}"
        COMMAND_ERROR_IS_FATAL ANY)
endforeach()
]])
endfunction()
