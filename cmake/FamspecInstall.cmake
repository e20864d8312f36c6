# Install and export rules: `cmake --install build --prefix P` gives a relocatable tree that
# out-of-tree family projects consume with find_package(famspec CONFIG REQUIRED).
#
#   P/bin/famspec                               the core's archive linked in; no RUNPATH
#   P/lib/libfamspec.so*                        the core (SONAME libfamspec.so.<major>), famspec_core
#   P/lib/famspec/plugins/famspec_*.so          tables, read by famspec, never loaded
#   P/include/famspec/...                       core and SDK headers, generated version.hpp included
#   P/lib/cmake/famspec/                        package config, version file, targets, FamspecPlugin.cmake
#
# The library directory is always `lib`: the CLI finds its plugins at <bin>/../lib/famspec/plugins and
# every RPATH is relative to that layout, so a multiarch libdir would break the tree.
include(CMakePackageConfigHelpers)

set(FAMSPEC_INSTALL_LIBDIR lib)
# FAMSPEC_INSTALL_CMAKEDIR (lib/cmake/famspec) is set at the top level: the Python package needs it too.

set_target_properties(famspec_core PROPERTIES EXPORT_NAME core)
set_target_properties(famspec_sdk PROPERTIES EXPORT_NAME sdk)

install(TARGETS famspec_core famspec_sdk
    EXPORT famspecTargets
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    LIBRARY DESTINATION ${FAMSPEC_INSTALL_LIBDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/ ${PROJECT_SOURCE_DIR}/core/include/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp")
install(FILES ${CMAKE_BINARY_DIR}/include/famspec/sdk/version.hpp
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/famspec/sdk)

install(EXPORT famspecTargets NAMESPACE famspec:: DESTINATION ${FAMSPEC_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/famspecConfig.cmake.in
    ${CMAKE_BINARY_DIR}/famspecConfig.cmake
    INSTALL_DESTINATION ${FAMSPEC_INSTALL_CMAKEDIR}
    PATH_VARS FAMSPEC_INSTALL_PLUGINDIR)
# Plugins check the ABI major at load time too; the version file refuses a mismatch at configure time.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/famspecConfigVersion.cmake
    VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMajorVersion)
install(FILES
    ${CMAKE_BINARY_DIR}/famspecConfig.cmake
    ${CMAKE_BINARY_DIR}/famspecConfigVersion.cmake
    ${PROJECT_SOURCE_DIR}/sdk/cmake/FamspecPlugin.cmake
    ${PROJECT_SOURCE_DIR}/sdk/cmake/FamspecEmbedAssets.cmake
    DESTINATION ${FAMSPEC_INSTALL_CMAKEDIR})
