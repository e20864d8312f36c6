# famspec_add_plugin(<name> SOURCES <src>... [OUTPUT_DIRECTORY <dir>] [NO_INSTALL]
#                    [INSTALL_DESTINATION <dir>] [ASSETS <file>...])
#
# The one way to build a family plugin. It produces <OUTPUT_DIRECTORY>/famspec_<name>.so, an ordinary
# shared library whose one exported symbol is its block of tables, `famspec_plugin_tables`, in the
# read-only section `.famspec_tables` (FAMSPEC_PLUGIN in famspec/sdk/tables.hpp):
#   - hidden visibility and a linker version script that exports only the tables;
#   - -Wl,--no-undefined, so a plugin that refers to anything it does not define fails its link;
#   - C++20 and the header-only SDK (famspec::sdk): the plugin links no famspec library.
# famspec reads the section from the file and never loads the library, so its metadata is the
# tables themselves: nothing is generated or spliced in after the link, and nothing can drift.
# The tables are plain integers, so a plugin may be built with any compiler, standard library, C++
# ABI switch or sanitizer; only the word size and byte order must be the host's.
# ASSETS embeds text files (e.g. Python sources) as `famspec_assets::<stem>` string_views in the
# generated header "<name>_assets.hpp".
#
# Works in the famspec tree and from an installed package (find_package(famspec CONFIG)). In the tree,
# plugins are installed to FAMSPEC_INSTALL_PLUGINDIR; out of the tree, only when INSTALL_DESTINATION
# is given (e.g. ${famspec_PLUGIN_DIR}, or any directory listed in FAMSPEC_PLUGIN_PATH).
set(FAMSPEC_PLUGIN_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
function(famspec_add_plugin name)
    cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY;INSTALL_DESTINATION" "SOURCES;ASSETS" ${ARGN})
    if(ARG_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "famspec_add_plugin(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT ARG_SOURCES)
        message(FATAL_ERROR "famspec_add_plugin(${name}): SOURCES is required")
    endif()
    if(NOT ARG_OUTPUT_DIRECTORY)
        if(DEFINED FAMSPEC_PLUGIN_OUTPUT_DIR)
            set(ARG_OUTPUT_DIRECTORY "${FAMSPEC_PLUGIN_OUTPUT_DIR}")
        else()
            set(ARG_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/plugins")
        endif()
    endif()

    add_library(${name} MODULE ${ARG_SOURCES})
    set_property(GLOBAL APPEND PROPERTY FAMSPEC_PLUGIN_TARGETS ${name})
    target_link_libraries(${name} PRIVATE famspec::sdk)
    set(version_script "${CMAKE_CURRENT_BINARY_DIR}/${name}.exports")
    file(WRITE "${version_script}" "{\n  global: famspec_plugin_tables;\n  local: *;\n};\n")
    target_link_options(${name} PRIVATE -Wl,--no-undefined "-Wl,--version-script=${version_script}")
    set_target_properties(${name} PROPERTIES
        PREFIX ""
        OUTPUT_NAME famspec_${name}
        CXX_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON
        LINK_DEPENDS "${version_script}"
        LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}"
        # A plugin needs no famspec library; an RPATH would only invite a search.
        INSTALL_RPATH "")

    if(ARG_ASSETS)
        set(assets_header "${CMAKE_CURRENT_BINARY_DIR}/famspec_generated/${name}_assets.hpp")
        add_custom_command(OUTPUT "${assets_header}"
            COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${assets_header}" "-DASSETS=${ARG_ASSETS}"
                    -P "${FAMSPEC_PLUGIN_CMAKE_DIR}/FamspecEmbedAssets.cmake"
            DEPENDS ${ARG_ASSETS} "${FAMSPEC_PLUGIN_CMAKE_DIR}/FamspecEmbedAssets.cmake"
            WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
            COMMENT "Embedding assets of ${name}"
            VERBATIM)
        target_sources(${name} PRIVATE "${assets_header}")
        target_include_directories(${name} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/famspec_generated")
    endif()

    if(NOT ARG_NO_INSTALL)
        if(ARG_INSTALL_DESTINATION)
            install(TARGETS ${name} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}")
        elseif(DEFINED FAMSPEC_INSTALL_PLUGINDIR)
            install(TARGETS ${name} LIBRARY DESTINATION "${FAMSPEC_INSTALL_PLUGINDIR}")
        endif()
    endif()
endfunction()

