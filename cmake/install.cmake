# Installation: headers, the shared and static libraries (libfjson), the
# fastjson command (and fastjson-gen when it is built), a CMake package
# (find_package(fastjson) -> fastjson::fastjson, fastjson::fastjson_static)
# and a pkg-config file (fastjson.pc). Also the `docs` target (Doxygen) and
# the `amalgamation` target (scripts/amalgamate.py).
#
# No file name clashes with Debian's unrelated libfastjson (rsyslog's:
# /usr/include/libfastjson/, libfastjson.so*, libfastjson.a, libfastjson.pc);
# tests/test_install.py checks that.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FJ_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fastjson CACHE STRING
    "Where the CMake package files go, relative to the prefix")

install(TARGETS fastjson fastjson_static EXPORT fastjsonTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/fastjson.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/fastjson DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

if(FJ_BUILD_TOOLS AND TARGET fastjson_cli)
  install(TARGETS fastjson_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# the struct-codec generator, once it exists (target fastjson_gen, file fastjson-gen)
if(TARGET fastjson_gen)
  install(TARGETS fastjson_gen EXPORT fastjsonTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# CMake package: relocatable (paths relative to the installed config file)
install(EXPORT fastjsonTargets NAMESPACE fastjson:: DESTINATION ${FJ_INSTALL_CMAKEDIR}
        FILE fastjsonTargets.cmake)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fastjsonConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/fastjsonConfig.cmake INSTALL_DESTINATION ${FJ_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the API, so only the same minor matches
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/fastjsonConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/fastjsonConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/fastjsonConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FastjsonGenerate.cmake
        DESTINATION ${FJ_INSTALL_CMAKEDIR})

# pkg-config: written at install time, so that `cmake --install --prefix P`
# (and DESTDIR) give a file with P's absolute paths
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_fj_pc_libdir "${CMAKE_INSTALL_LIBDIR}")
else()
  set(_fj_pc_libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(_fj_pc_includedir "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(_fj_pc_includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
install(CODE "
  set(FJ_PC_LIBDIR [[${_fj_pc_libdir}]])
  set(FJ_PC_INCLUDEDIR [[${_fj_pc_includedir}]])
  set(FJ_PC_LIBNAME [[${FJ_LIBRARY_NAME}]])
  set(FJ_PC_VERSION [[${PROJECT_VERSION}]])
  set(FJ_PC_IN [[${CMAKE_CURRENT_LIST_DIR}/fastjson.pc.in]])
  set(FJ_PC_DIR [[${CMAKE_INSTALL_LIBDIR}/pkgconfig]])
  include([[${CMAKE_CURRENT_LIST_DIR}/write_pc.cmake]])
")

# ---- docs: the API reference from the public headers' doc comments -------------
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(FJ_DOCS_OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/docs)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/docs/Doxyfile.in ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile
                 @ONLY)
  add_custom_target(docs COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_CURRENT_BINARY_DIR}/Doxyfile
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "API reference: ${FJ_DOCS_OUTPUT}/html/index.html" VERBATIM)
endif()

# ---- the single-file distribution: fastjson.h + fastjson.c ---------------------
find_program(FJ_PYTHON3 python3)
if(FJ_PYTHON3)
  add_custom_target(amalgamation
    COMMAND ${FJ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/amalgamate.py
            --out ${CMAKE_CURRENT_BINARY_DIR}/amalgamation
    COMMENT "fastjson.h + fastjson.c in ${CMAKE_CURRENT_BINARY_DIR}/amalgamation" VERBATIM)
endif()
