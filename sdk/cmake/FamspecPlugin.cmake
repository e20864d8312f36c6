# famspec_add_plugin(<name> SOURCES <src>... [OUTPUT_DIRECTORY <dir>] [MANIFEST_TEMPLATE <json>]
#                    [NO_MANIFEST] [NO_INSTALL] [INSTALL_DESTINATION <dir>] [ASSETS <file>...]
#                    [ALLOW_INCOMPATIBLE])
#
# The one way to build a family plugin. It produces <OUTPUT_DIRECTORY>/famspec_<name>.so with:
#   - hidden visibility and a linker version script that exports only the entry descriptor;
#   - -Wl,--no-undefined, so a missing symbol fails the link, not the training job;
#   - C++20 and the header-only SDK (famspec::sdk): the plugin links no famspec library;
#   - an embedded manifest (section .famspec_manifest) generated from the plugin's own registration
#     by famspec-manifest, so the metadata cannot drift from what the plugin registers.
# ASSETS embeds text files (e.g. Python sources) as `famspec_assets::<stem>` string_views in the
# generated header "<name>_assets.hpp".
# A plugin the famspec it is built against would refuse (another standard library, C++ ABI switch or
# sanitizer: its build fingerprint differs) fails its build; another compiler is only noted.
# ALLOW_INCOMPATIBLE, or the cache option FAMSPEC_ALLOW_INCOMPATIBLE_PLUGINS, builds it anyway, with
# a warning; famspec refuses it at load.
# MANIFEST_TEMPLATE and NO_MANIFEST exist for the test fixtures that must carry a wrong manifest.
#
# Works in the famspec tree and from an installed package (find_package(famspec CONFIG)). In the tree,
# plugins are installed to FAMSPEC_INSTALL_PLUGINDIR; out of the tree, only when INSTALL_DESTINATION
# is given (e.g. ${famspec_PLUGIN_DIR}, or any directory listed in FAMSPEC_PLUGIN_PATH).
set(FAMSPEC_PLUGIN_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
if(NOT CMAKE_OBJCOPY)
    find_program(CMAKE_OBJCOPY objcopy REQUIRED)
endif()

option(FAMSPEC_ALLOW_INCOMPATIBLE_PLUGINS "Build plugins famspec would refuse at load (a warning, not an error)" OFF)

function(famspec_add_plugin name)
    cmake_parse_arguments(ARG "NO_MANIFEST;NO_INSTALL;ALLOW_INCOMPATIBLE"
                          "OUTPUT_DIRECTORY;MANIFEST_TEMPLATE;INSTALL_DESTINATION" "SOURCES;ASSETS" ${ARGN})
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
    file(WRITE "${version_script}" "{\n  global: famspec_plugin_descriptor;\n  local: *;\n};\n")
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

    if(NOT ARG_NO_MANIFEST)
        set(manifest "${CMAKE_CURRENT_BINARY_DIR}/${name}.manifest.json")
        if(ARG_MANIFEST_TEMPLATE)
            set(generate $<TARGET_FILE:famspec::manifest> template "${ARG_MANIFEST_TEMPLATE}" -o "${manifest}")
        else()
            set(generate $<TARGET_FILE:famspec::manifest> generate $<TARGET_FILE:${name}> -o "${manifest}")
            if(ARG_ALLOW_INCOMPATIBLE OR FAMSPEC_ALLOW_INCOMPATIBLE_PLUGINS)
                list(APPEND generate --allow-incompatible)
            endif()
        endif()
        add_custom_command(TARGET ${name} POST_BUILD
            COMMAND ${generate}
            COMMAND ${CMAKE_OBJCOPY} --remove-section .famspec_manifest --add-section
                    .famspec_manifest=${manifest} --set-section-flags
                    .famspec_manifest=readonly,contents $<TARGET_FILE:${name}>
            VERBATIM)
    endif()

    if(NOT ARG_NO_INSTALL)
        if(ARG_INSTALL_DESTINATION)
            install(TARGETS ${name} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}")
        elseif(DEFINED FAMSPEC_INSTALL_PLUGINDIR)
            install(TARGETS ${name} LIBRARY DESTINATION "${FAMSPEC_INSTALL_PLUGINDIR}")
        endif()
    endif()
endfunction()

